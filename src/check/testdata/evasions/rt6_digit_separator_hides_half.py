# expect: precision_downcast
# A digit separator's quote opens no character literal: the __half after
# it on the same line is code, not the inside of a literal.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>
torch::Tensor fwd(torch::Tensor x) { int n = 1'0; __half h = __float2half(1.f); (void)h; (void)n; return x; }
"""

ext = load_inline(name="ext_sep", cpp_sources=SRC, functions=["fwd"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.fwd(x)
