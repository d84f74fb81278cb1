# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cublasLt.h>

torch::Tensor go(torch::Tensor x) {
    alignas(64) static char storage[4096];
    auto desc = reinterpret_cast<cublasLtMatmulDesc_t>(storage);
    cublasLtMatmulDescInit(desc, static_cast<decltype(CUBLAS_COMPUTE_32F)>(77), CUDA_R_32F);
    return x;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_ldflags=["-lcublasLt"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
