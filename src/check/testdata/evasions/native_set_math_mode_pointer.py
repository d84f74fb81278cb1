# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
torch::Tensor mm(torch::Tensor a, torch::Tensor b) {
    auto set = &cublasSetMathMode;
    set(at::cuda::getCurrentCUDABlasHandle(), static_cast<decltype(CUBLAS_PEDANTIC_MATH)>(1 << 1 | 1));
    return at::mm(a, b);
}
"""
module = load_inline(name="mode_pointer", cpp_sources=source, functions=["mm"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.mm(a, b)
