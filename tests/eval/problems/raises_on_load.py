# Test problem that cannot be built: get_init_inputs raises (the reference
# worker reports the error and goes on serving its other problems).
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return []


def get_init_inputs():
    raise RuntimeError("this problem cannot be built")
