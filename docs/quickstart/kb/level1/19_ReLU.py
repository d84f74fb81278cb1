# KernelBench's level1/19_ReLU.py at a size a CPU evaluates in seconds
# (KernelBench's own takes a 4096 x 393216 input, sized for a GPU).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Simple model that performs a ReLU activation."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


batch_size = 64
dim = 4096


def get_inputs():
    x = torch.rand(batch_size, dim) - 0.5
    return [x]


def get_init_inputs():
    return []
