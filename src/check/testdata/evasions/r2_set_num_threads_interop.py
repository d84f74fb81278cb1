# expect: uses_threads
# expect: uses_threads
import torch
import torch.nn as nn

torch.set_num_interop_threads(64)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
