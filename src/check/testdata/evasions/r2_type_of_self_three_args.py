# expect: dynamic_code
# (a metaclass called with a namespace; the literal dunder key is private_attribute's, a backstop)
import torch
import torch.nn as nn

class Base:
    pass

K = type(Base)("K", (Base,), {"__reduce__": lambda s: (print, ("x",))})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
