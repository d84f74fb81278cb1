# Honest: functools.partial binding keywords that set nothing of a class's identity (rename=, defaults=,
# an activation's negative_slope).
import collections
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

Shape = functools.partial(collections.namedtuple, rename=True, defaults=(1,))("Shape", "rows cols")
leaky = functools.partial(F.leaky_relu, negative_slope=0.1)


class ModelNew(nn.Module):
    def forward(self, x):
        s = Shape(x.shape[0], x.shape[-1])
        return leaky(x) * (s.rows > 0)
