# expect: runtime_patching
import torch
import torch.nn as nn
from sys import modules


class ModelNew(nn.Module):
    def forward(self, x):
        modules['time'].perf_counter
        return x
