# expect: dynamic_code
import contextlib
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = "__global__ void k(float* y){ }"
for _, SRC in [(0, bytes([95, 95, 104, 97, 108, 102]).decode())]:
    pass
mod = load_inline(name="v", cpp_sources="", cuda_sources=SRC, functions=[])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
