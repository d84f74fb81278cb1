# expect: try_fallback
import torch
import torch.nn as nn
from contextlib import ExitStack


class ModelNew(nn.Module):
    def forward(self, x):
        with ExitStack() as s:
            x = x + 1
        return x
