# expect: dynamic_code
# @dataclass writes each annotation key of the class body into source text
# that it exec()s (dataclasses._create_fn). A key computed at run time and
# written through the class body's __annotations__ mapping (no rule reads
# it) injects code into the generated __eq__: here it replaces torch.relu
# with torch.sigmoid (checked with /usr/bin/python3, CPython 3.11).
import dataclasses
import torch
import torch.nn as nn

KEY = bytes([121, 44, 115, 101, 116, 97, 116, 116, 114, 40, 116, 111, 114, 99, 104, 44, 39, 114, 101,
             108, 117, 39, 44, 116, 111, 114, 99, 104, 46, 115, 105, 103, 109, 111, 105, 100, 41]).decode()


@dataclasses.dataclass(init=False, repr=False, eq=True)
class Cfg:
    y: int = 0
    __annotations__[KEY] = int


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        c = Cfg()
        self.same = c == c

    def forward(self, x):
        return torch.relu(x)
