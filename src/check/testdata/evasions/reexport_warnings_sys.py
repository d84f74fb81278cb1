# expect: runtime_patching
import torch
import torch.nn as nn
import warnings


class ModelNew(nn.Module):
    def forward(self, x):
        m = warnings.sys.modules
        return x
