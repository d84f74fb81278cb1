# relu(a + b) on two 1024x2048 fp32 matrices: the decoys' problem. On the CPU
# the share of a call spent inside the candidate's extensions includes the
# Python call itself (about 15 us); at 512x512 that alone came near the 10%
# below which negligible_own_work flags a decoy, so a busy machine decided
# the verdict. Here torch's part takes milliseconds and the decoy's share
# stays far below the line.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.relu(a + b)


def get_inputs():
    return [torch.randn(1024, 2048), torch.randn(1024, 2048)]


def get_init_inputs():
    return []
