# expect: try_fallback
import torch
import torch.nn as nn
from contextlib import suppress


class ModelNew(nn.Module):
    def forward(self, x):
        with suppress(Exception):
            x = x + 1
        return x
