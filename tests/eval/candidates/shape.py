# shape_mismatch: drops the last column.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return (self.scale * x + y)[:, :-1]
