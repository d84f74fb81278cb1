# expect: try_fallback
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for _ in range(1):
            try:
                x = x + 1
            finally:
                continue
        return x
