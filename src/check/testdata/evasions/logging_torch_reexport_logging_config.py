# expect: runtime_patching
import torch
import torch.nn as nn

import torch.utils.cpp_extension as ce


class ModelNew(nn.Module):
    def forward(self, x):
        ce.logging.FileHandler("/tmp/x.log")
        ce.logging.basicConfig(filename="/tmp/y.log")
        return torch.relu(x)
