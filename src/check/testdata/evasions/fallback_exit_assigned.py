# expect: try_fallback
import torch
import torch.nn as nn

def quiet(*a):
    return True
class Q:
    def __enter__(self):
        return self
    __exit__ = quiet


class ModelNew(nn.Module):
    def forward(self, x):
        with Q():
            x = x + 1
        return x
