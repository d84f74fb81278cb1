# A degenerate problem: subtracting the row max of a size-1 dimension leaves
# zeros whatever the input, so a constant output matches the reference.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x.sum(dim=1, keepdim=True)
        return y - y.max(dim=1, keepdim=True).values


def get_inputs():
    return [torch.randn(512, 256)]


def get_init_inputs():
    return []
