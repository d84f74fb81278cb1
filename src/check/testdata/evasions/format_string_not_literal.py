# expect: dynamic_getattr
import torch
import torch.nn as nn


def probe():
    return 0


spec = "".join(["{0.", "__globals__", "}"]) if torch.__version__ else ""
spec.format(probe)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
