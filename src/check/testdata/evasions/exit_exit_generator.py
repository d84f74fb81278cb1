# expect: try_fallback
import contextlib
import torch
import torch.nn as nn


class Guard:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        yield  # a generator function: calling it returns a truthy generator, so the exception is swallowed


class ModelNew(nn.Module):
    def forward(self, x):
        with Guard():
            return torch.nonexistent_kernel(x)
        return torch.relu(x)
