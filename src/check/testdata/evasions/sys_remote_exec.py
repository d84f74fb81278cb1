# expect: introspection
import torch
import torch.nn as nn
import sys


class ModelNew(nn.Module):
    def forward(self, x):
        sys.remote_exec(1, '/tmp/x.py')
        return x
