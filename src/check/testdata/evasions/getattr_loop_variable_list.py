# expect: dynamic_getattr
import torch
import torch.nn as nn

NAMES = ['fc']


class ModelNew(nn.Module):
    def forward(self, x):
        for n in NAMES:
            k = getattr(self, n)
        return x
