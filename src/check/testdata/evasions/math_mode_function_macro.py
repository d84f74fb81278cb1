# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

#define CUBLAS_DEFAULT_MATH(m) static_cast<decltype(m)>((int)(m) + 1)
torch::Tensor go(torch::Tensor x) {
    auto handle = at::cuda::getCurrentCUDABlasHandle();
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH(CUBLAS_PEDANTIC_MATH));
    return at::mm(x, x);
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
