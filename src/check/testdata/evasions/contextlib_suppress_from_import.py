# expect: try_fallback
import contextlib
from contextlib import suppress

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with suppress(Exception):
            return torch.ops.mylib.fast(x)
        return torch.relu(x)
