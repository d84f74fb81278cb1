# expect: runtime_patching
import torch
import torch.nn as nn
import os

class ModelNew(nn.Module):
    def forward(self, x):
        os.sys.modules['time'].perf_counter = lambda: 0.0
        return x
