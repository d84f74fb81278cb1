# expect: private_attribute
# functools.partial(collections.namedtuple, module="torch"): partial's keywords are judged as its function's.
import torch
import torch.nn as nn
import collections
import functools

make = functools.partial(collections.namedtuple, module="torch")
Pair = make("Pair", "a b")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)
