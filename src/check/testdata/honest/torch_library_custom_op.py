# Honest: an operator of one's own through torch.library.custom_op (a new name replaces nothing).
import torch
import torch.nn as nn


@torch.library.custom_op("kmem_demo::scaled_relu", mutates_args=())
def scaled_relu(x: torch.Tensor, scale: float) -> torch.Tensor:
    return torch.relu(x) * scale


@scaled_relu.register_fake
def _(x, scale):
    return torch.empty_like(x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return scaled_relu(x, 2.0)
