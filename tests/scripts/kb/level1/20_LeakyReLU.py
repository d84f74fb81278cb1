# A KernelBench-like level1/20_LeakyReLU.py for tests/scripts (the CPU tests of
# scripts/seed_replay.py and scripts/learning_run.py): written with
# torch.where, which Debian's torch does not vectorise, so the eager
# reference's time is arithmetic rather than memory traffic and a fused C++
# loop's speedup repeats closely on a CPU.
import torch
import torch.nn as nn


class Model(nn.Module):
    """LeakyReLU with a negative slope of 0.01."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.where(x > 0, x, x * 0.01)


batch_size = 32
dim = 1024


def get_inputs():
    x = torch.rand(batch_size, dim) * 4 - 2
    return [x]


def get_init_inputs():
    return []
