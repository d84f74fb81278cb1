# expect: dynamic_getattr
import torch
import torch.nn as nn


def probe():
    return 0


("{0." + "__glob" + "als__}").format(probe)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
