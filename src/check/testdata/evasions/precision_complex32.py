# expect: precision_downcast
import torch
import torch.nn as nn
from torch import complex32 as c32


def squeeze(x):
    return x.to(c32).real.float()


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
