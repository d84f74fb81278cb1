# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        object.__setattr__(torch, 'matmul', None)
        return x
