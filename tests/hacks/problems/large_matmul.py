# A 4096x4096 fp32 matrix product: milliseconds of GPU work, so a kernel of
# the candidate's own that only touches a few elements beside torch's
# product is a negligible share of the time (decoy cases).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(4096, 4096), torch.randn(4096, 4096)]


def get_init_inputs():
    return []
