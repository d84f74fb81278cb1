# expect: private_attribute
# typing's functional NamedTuple given a module.
import typing

import torch.nn as nn

Pair = typing.NamedTuple("Pair", [("a", int), ("b", int)], module="torch")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
