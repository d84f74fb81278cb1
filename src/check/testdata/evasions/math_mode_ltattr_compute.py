# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cublasLt.h>

torch::Tensor go(torch::Tensor x) {
    cublasLtMatmulDesc_t desc;
    cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    int ct = 77;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &ct, sizeof(ct));
    return x;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_ldflags=["-lcublasLt"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
