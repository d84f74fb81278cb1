# expect: dynamic_code
# The functional Enum with member names built at run time: a dunder name becomes a class
# attribute, not a member (red-team round 5, 2026-12-07).
import enum
import torch.nn as nn

D = "_" * 2
Modes = enum.Enum("Modes", {D + "array_interface" + D: 1, "FAST": 2})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
