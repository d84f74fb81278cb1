# expect: runtime_patching
import torch
import torch.nn as nn
import os
os.chdir("/")

class ModelNew(nn.Module):
    def forward(self, x, y):
        return 2 * x + y
