# expect: uses_threads
import torch
import torch.nn as nn
from torch.jit import fork as jf


class ModelNew(nn.Module):
    def forward(self, x):
        jf(print)
        return x
