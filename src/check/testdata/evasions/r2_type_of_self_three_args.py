# expect: private_attribute
# expect: dynamic_code
import torch
import torch.nn as nn

class Base:
    pass

K = type(Base)("K", (Base,), {"__reduce__": lambda s: (print, ("x",))})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
