# Honest: class factories given literal member names (red-team round 5, 2026-12-07): make_dataclass
# with a literal namespace, the functional Enum with a string, a list and a dict of literal names.
import dataclasses
import enum

import torch
import torch.nn as nn

Config = dataclasses.make_dataclass("Config", [("scale", float, 1.0)], namespace={"describe": lambda self: "cfg"})
Plain = dataclasses.make_dataclass("Plain", ["a", "b"])
Mode = enum.Enum("Mode", "FAST SLOW")
Kind = enum.Enum("Kind", ["A", "B"])
Level = enum.IntEnum("Level", {"LOW": 1, "HIGH": 2})
Pairs = enum.Enum("Pairs", [("X", 1), ("Y", 2)])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, x):
        return torch.relu(x) * self.config.scale
