# expect: try_fallback
import contextlib

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with contextlib.ExitStack() as stack:
            stack.push(lambda *exc: True)
            return torch.ops.mylib.fast(x)
        return torch.relu(x)
