# KernelBench's level1/30_Softsign.py at a size a CPU evaluates in seconds, for
# tests/scripts (the CPU tests of scripts/seed_replay.py and
# scripts/learning_run.py): eager PyTorch runs three operations (abs, add,
# divide), so one fused C++ loop is faster on a CPU, by 1.5-3x with a spread
# (a call is mostly memory traffic from cold caches, which other work slows).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Simple model that performs a Softsign activation."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / (1 + torch.abs(x))


batch_size = 32
dim = 1024


def get_inputs():
    x = torch.rand(batch_size, dim) * 4 - 2
    return [x]


def get_init_inputs():
    return []
