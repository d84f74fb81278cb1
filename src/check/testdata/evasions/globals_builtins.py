# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        b = globals()['__builtins__']
        return x
