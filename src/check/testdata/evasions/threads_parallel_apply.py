# expect: uses_threads
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.nn.parallel.parallel_apply([nn.Identity(), nn.Identity()], [(x,), (x,)])[0]
