# expect: try_fallback
import functools
import torch
import torch.nn as nn


class Guard:
    def __enter__(self):
        return self

    @functools.partial(functools.partial, lambda *a: True)
    def __exit__(self, *exc):
        return None


class ModelNew(nn.Module):
    def forward(self, x):
        with Guard():
            return torch.nonexistent_kernel(x)
        return torch.relu(x)
