# expect: runtime_patching
import torch
import torch.nn as nn
import sys


class ModelNew(nn.Module):
    def forward(self, x):
        sys.path.insert(0, '/tmp')
        return x
