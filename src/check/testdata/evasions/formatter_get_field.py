# expect: dynamic_getattr
import torch
import torch.nn as nn
import string


def probe():
    return 0


string.Formatter().get_field("0.__globals__", (probe,), {})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
