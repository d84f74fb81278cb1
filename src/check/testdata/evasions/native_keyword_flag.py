# expect: dynamic_code
# The keyword redefined by a build flag rather than a directive.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    at::globalContext().allow_tf32_cublas = true;
    return at::matmul(a, b);
}
"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_cflags=["-Dprivate=public"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
