# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ |= {"NVCC_PREPEND_FLAGS": "-include /tmp/x.h"}


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
