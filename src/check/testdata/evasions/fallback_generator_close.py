# expect: try_fallback
import torch
import torch.nn as nn

def g():
    try:
        yield
    except GeneratorExit:
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
