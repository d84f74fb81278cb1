# expect: dynamic_getattr
import torch
import torch.nn as nn
from string import Formatter as F

F().vformat("{0.__globals__}", (torch.zeros,), {})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
