# expect: try_fallback
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        try:
            x = x + 1
        except* Exception:
            pass
        return x
