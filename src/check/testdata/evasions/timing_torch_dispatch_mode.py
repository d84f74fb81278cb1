# expect: runtime_patching
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode


class ModelNew(nn.Module):
    def forward(self, x):
        return x
