# Honest: cublasGemmEx with fp32 data and CUBLAS_COMPUTE_32F (no TF32), plus a Python-side dtype guard.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

torch::Tensor gemm_ex(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.scalar_type() == at::kFloat, "a must be float32");
    const int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    auto handle = at::cuda::getCurrentCUDABlasHandle();
    const float alpha = 1.f, beta = 0.f;
    TORCH_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                             b.data_ptr<float>(), CUDA_R_32F, N, a.data_ptr<float>(), CUDA_R_32F, K,
                             &beta, c.data_ptr<float>(), CUDA_R_32F, N,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS, "gemm failed");
    return c;
}
"""

ext = load_inline(name="gemm_ex_fp32", cpp_sources=src, functions=["gemm_ex"], with_cuda=True,
                  extra_ldflags=["-lcublas", "-lcublasLt"])


class ModelNew(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        if A.dtype != torch.float32:
            A = A.float()
        return ext.gemm_ex(A.contiguous(), B.contiguous())
