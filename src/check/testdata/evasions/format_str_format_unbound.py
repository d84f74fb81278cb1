# expect: dynamic_getattr
import torch
import torch.nn as nn

str.format("{0.__class__.__mro__}", torch.zeros(1))


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
