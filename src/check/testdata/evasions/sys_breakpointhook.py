# expect: dynamic_code
import torch
import torch.nn as nn
import sys


class ModelNew(nn.Module):
    def forward(self, x):
        sys.breakpointhook()
        return x
