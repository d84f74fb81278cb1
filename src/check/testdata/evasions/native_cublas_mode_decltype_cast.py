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
    cublasSetMathMode(handle, decltype(CUBLAS_DEFAULT_MATH)(3));
    return at::mm(a, b);
}
"""
module = load_inline(name="mode_decltype", cpp_sources=source, functions=["mm"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.mm(a, b)
