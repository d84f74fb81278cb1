# expect: try_fallback
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        try:
            y = k(x)
        finally:
            return torch.relu(x)
        return x
