# expect: uses_threads
import torch
import torch.nn as nn
from os.path import os as o2


class ModelNew(nn.Module):
    def forward(self, x):
        o2.kill(1, 9)
        return x
