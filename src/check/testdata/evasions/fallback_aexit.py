# expect: try_fallback
import torch
import torch.nn as nn

class Q:
    async def __aexit__(self, *a):
        return True


class ModelNew(nn.Module):
    def forward(self, x):
        return x
