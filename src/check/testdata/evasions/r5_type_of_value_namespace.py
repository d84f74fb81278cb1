# expect: dynamic_code
# type(x)(name, bases, namespace): the metaclass of a value called with a namespace (red-team round 5, 2026-12-07).
import torch.nn as nn


class Base:
    pass


Hook = type(Base)("Hook", (Base,), {"_" * 2 + "del" + "_" * 2: lambda self: None})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
