# Honest: gemm strided fp32 (adversarial round, 2026-12-06).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

torch::Tensor go(torch::Tensor a) {
    auto c = torch::empty_like(a);
    auto handle = at::cuda::getCurrentCUDABlasHandle();
    float one = 1.f, zero = 0.f;
    int n = a.size(1);
    long long s = (long long)n * n;
    cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
        a.data_ptr<float>(), CUDA_R_32F, n, s, a.data_ptr<float>(), CUDA_R_32F, n, s, &zero,
        c.data_ptr<float>(), CUDA_R_32F, n, s, (int)a.size(0), CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
    return c;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
