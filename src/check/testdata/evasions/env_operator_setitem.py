# expect: dynamic_code
import torch
import torch.nn as nn
import operator
import os

operator.setitem(os.environ, "CXX", "/tmp/cc")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
