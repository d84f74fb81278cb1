# expect: try_fallback
import torch
import torch.nn as nn

class Quiet:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        return True


class ModelNew(nn.Module):
    def forward(self, x):
        with Quiet():
            x = k(x)
        return x
