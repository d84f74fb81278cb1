# Honest: __half named only inside a TORCH_CHECK message of the C++ source: prose, no type.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/extension.h>
static void chk(torch::Tensor x) { TORCH_CHECK(x.scalar_type() == at::kFloat, "__half inputs are not supported"); }
torch::Tensor fwd(torch::Tensor x) { return x + 1; }
"""

ext = load_inline(name="ext_probe", cpp_sources=SRC, functions=["fwd"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.fwd(x)
