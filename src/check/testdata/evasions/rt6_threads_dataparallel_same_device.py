# expect: uses_threads
# torch.nn.parallel.parallel_apply is refused, but nn.DataParallel (which
# calls it) is not: with two device ids (even the same GPU twice) its forward
# replicates the module and runs the replicas on threading.Thread workers.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.DataParallel(nn.Identity(), device_ids=[0, 0])

    def forward(self, x):
        return self.body(x)
