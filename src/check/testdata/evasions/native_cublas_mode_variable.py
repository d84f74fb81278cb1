# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
torch::Tensor mm(torch::Tensor a, torch::Tensor b) {
    auto handle = at::cuda::getCurrentCUDABlasHandle();
    auto mode = CUBLAS_DEFAULT_MATH;
    mode = static_cast<decltype(mode)>(mode + 3);
    cublasSetMathMode(handle, mode);
    return at::mm(a, b);
}
"""
module = load_inline(name="mode_variable", cpp_sources=source, functions=["mm"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.mm(a, b)
