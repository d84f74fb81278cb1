# input_mutation: doubles x in place.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        return x.mul_(2).add_(y)
