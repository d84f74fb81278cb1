# expect: module_as_value
import torch
import torch.nn as nn

def pick(flag):
    if flag:
        from torch import cuda as c
    else:
        import os as c
    return 0


class ModelNew(nn.Module):
    def forward(self, x):
        pick(1)
        return x
