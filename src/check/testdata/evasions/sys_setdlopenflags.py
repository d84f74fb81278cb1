# expect: runtime_patching
import torch
import torch.nn as nn
import os
import sys

sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
