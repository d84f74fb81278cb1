# expect: runtime_patching
import torch
import torch.nn as nn

T = torch.Tensor


class ModelNew(nn.Module):
    def stash(self, value):
        self.clone = value

    def forward(self, x):
        ModelNew.stash(T, lambda t: t)
        return torch.relu(x)
