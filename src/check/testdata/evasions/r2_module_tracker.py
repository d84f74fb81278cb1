# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
from torch.utils.module_tracker import ModuleTracker
_t = ModuleTracker()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
