# expect: try_fallback
import torch
import torch.nn as nn


class Guard:
    def __enter__(self):
        return self

    async def __exit__(self, *exc):
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        with Guard():
            return torch.nonexistent_kernel(x)
        return torch.relu(x)
