# Honest: format methods of literal format strings taken as values (red-team round 3, 2026-12-07).
import functools

import torch
import torch.nn as nn

SHAPE = "{}x{}"
label = functools.partial(SHAPE.format)
NAMES = list(map("layer{}".format, range(3)))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.tag = label(2, 3) + ",".join(NAMES)

    def forward(self, x):
        return torch.relu(x)
