# Honest: a namedtuple with defaults, a functional Enum and make_dataclass,
# none naming the module or qualified name of what it makes; module= of
# torch's own functions (a pruning helper's module argument) is no factory's.
import collections
import dataclasses
import enum

import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

Tile = collections.namedtuple("Tile", ["block", "warps"], defaults=[128, 4])
Layout = enum.Enum("Layout", "ROW COL")
Launch = dataclasses.make_dataclass("Launch", [("grid", int), ("tile", Tile, dataclasses.field(default_factory=Tile))])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        prune.identity(module=self.fc, name="weight")
        self.launch = Launch(grid=1)

    def forward(self, x):
        if Layout.ROW.value == 1:
            return self.fc(x) * self.launch.tile.warps / 4
        return x
