# expect: dynamic_code
# make_dataclass's namespace given as a dict built elsewhere (red-team round 5, 2026-12-07).
import dataclasses
import torch.nn as nn

members = {}
members["_" * 2 + "del" + "_" * 2] = lambda self: None
Hook = dataclasses.make_dataclass("Hook", [], namespace=members)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
