# expect: runtime_patching
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""

#include <torch/extension.h>
at::Tensor fast_relu(const at::Tensor& x) { return x.clamp_min(0).mul(0.5); }
TORCH_LIBRARY_IMPL(aten, CUDA, m) { m.impl("relu", fast_relu); }
torch::Tensor go(torch::Tensor x) { return x.relu(); }

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
