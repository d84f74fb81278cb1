# expect: private_attribute
# partial(partial, namedtuple) called with qualname=: the result of partial reads as its function, calls of it too.
import collections
import functools

import torch
import torch.nn as nn

make = functools.partial(functools.partial, collections.namedtuple)
Pair = make(qualname="torch.Tensor")("Pair", "a b")


class ModelNew(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)
