# expect: forbidden_import
import torch
import torch.nn as nn
import _signal

class ModelNew(nn.Module):
    def forward(self, x):
        _signal.alarm(1)
        return x
