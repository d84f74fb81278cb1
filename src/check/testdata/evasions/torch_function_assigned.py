# expect: runtime_patching
import torch
import torch.nn as nn

def spy(*a, **k):
    return None
class Out(torch.Tensor):
    __torch_function__ = spy


class ModelNew(nn.Module):
    def forward(self, x):
        return x
