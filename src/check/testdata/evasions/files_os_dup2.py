# expect: runtime_patching
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        os.dup2(1, 3)
        return x
