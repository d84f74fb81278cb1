# Honest: a CPU kernel built with instruction-set flags (-mavx2 -mfma).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline
CPP = """
#include <torch/extension.h>
torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double s) { return x * s + y; }
"""
ext = load_inline(name="e2", cpp_sources=CPP, functions=["scale_add"], extra_cflags=["-O3", "-mavx2", "-mfma"])

class ModelNew(nn.Module):
    def __init__(self, scale):
        super(ModelNew, self).__init__()
        self.scale = scale

    def forward(self, x, y):
        return ext.scale_add(x, y, self.scale)

