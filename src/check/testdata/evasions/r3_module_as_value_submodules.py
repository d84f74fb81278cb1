# expect: module_as_value
# torch.nn.init and torch.sparse passed to a function: submodules of torch, numpy and Triton are modules too.
import torch
import torch.nn as nn

def grab(mod_obj):
    return mod_obj


INIT = grab(torch.nn.init)
SP = grab(torch.sparse)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)
