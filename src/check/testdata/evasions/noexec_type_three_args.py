# expect: dynamic_code
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        K = type('K', (), {'__reduce__': lambda s: (print, ('x',))})
        return x
