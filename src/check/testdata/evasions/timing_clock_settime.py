# expect: runtime_patching
import torch
import torch.nn as nn
import time


class ModelNew(nn.Module):
    def forward(self, x):
        time.clock_settime(time.CLOCK_MONOTONIC, 0.0)
        return x
