# expect: dynamic_code
import torch
import torch.nn as nn
from os import environb

environb.update({b"CXX": b"/tmp/cxx"})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
