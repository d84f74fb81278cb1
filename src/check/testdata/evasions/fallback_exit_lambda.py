# expect: try_fallback
import torch
import torch.nn as nn

class Q:
    __enter__ = lambda s: s
    __exit__ = lambda s, *a: True


class ModelNew(nn.Module):
    def forward(self, x):
        with Q():
            x = x + 1
        return x
