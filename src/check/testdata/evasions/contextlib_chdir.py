# expect: try_fallback
import contextlib

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with contextlib.chdir("/"):
            pass
        return torch.relu(x)
