# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def stash(self, value):
        self.contiguous = value

    def forward(self, x):
        type(self).stash(torch.Tensor, lambda t: t)
        return torch.relu(x)
