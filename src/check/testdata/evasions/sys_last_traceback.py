# expect: introspection
import torch
import torch.nn as nn
import sys


class ModelNew(nn.Module):
    def forward(self, x):
        tb = sys.last_traceback
        return x
