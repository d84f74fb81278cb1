# expect: module_as_value
import torch
import torch.nn as nn

def deco(m):
    def inner(f):
        return m.Stream
    return inner
@deco(torch.cuda)
def s():
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
