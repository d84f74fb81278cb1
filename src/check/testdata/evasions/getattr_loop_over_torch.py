# expect: dynamic_getattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for n in ('cuda',):
            s = getattr(torch, n).Stream()
        return x
