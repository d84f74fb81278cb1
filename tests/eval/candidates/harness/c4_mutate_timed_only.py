# Class 4, timed calls unlike the trials: the result is written into the
# input and returned only after the trials (whose input mutation the worker
# checks). The reference's checksum of every call's inputs sees it.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.calls = 0

    def forward(self, x, y):
        self.calls += 1
        if self.calls <= 3:
            return self.scale * x + y
        return x.mul_(self.scale).add_(y)
