# expect: dynamic_code
# An attribute named by a key built at run time through a mapping that becomes attributes (red-team round 3, 2026-12-07).
import copy
import dataclasses
import torch
import torch.nn as nn

K = "_" * 2 + "reduce" + "_" * 2
# a field's default becomes a class attribute: here the class's __reduce__, which copy calls
P = dataclasses.make_dataclass("P", [(K, object, dataclasses.field(default=lambda: (print, ("ran through __reduce__",))))])


class ModelNew(nn.Module):
    def forward(self, x):
        copy.deepcopy(P())
        return x
