# expect: try_fallback
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for i in range(1):
            try:
                y = k(x)
            finally:
                break
        return x
