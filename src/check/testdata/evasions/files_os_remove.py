# expect: runtime_patching
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        os.remove('/tmp/a')
        return x
