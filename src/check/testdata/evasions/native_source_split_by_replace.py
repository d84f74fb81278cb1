# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = "#include <torch/extension.h>\n__global__ void k(float* y){ __haXX h; }".replace("XX", "lf")
mod = load_inline(name="v", cpp_sources="", cuda_sources=SRC, functions=[])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
