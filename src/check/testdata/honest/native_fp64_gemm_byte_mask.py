# Honest: none of the integer or narrow-float names: an fp64 cublasGemmEx
# (CUDA_R_64F, CUBLAS_COMPUTE_64F), cuBLASLt's plain column order, and a
# byte mask loaded with PTX `ld.global.nc.u8` (a load, no integer math).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#include <cublasLt.h>

__device__ unsigned char load_mask(const unsigned char* p) {
    unsigned int v;
    asm volatile("ld.global.nc.u8 %0, [%1];" : "=r"(v) : "l"(p));
    return static_cast<unsigned char>(v);
}

__global__ void masked_copy(const float* x, const unsigned char* m, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = load_mask(m + i) ? x[i] : 0.f;
}

torch::Tensor dgemm(torch::Tensor a, torch::Tensor b) {
    int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    const double alpha = 1.0, beta = 0.0;
    cublasLtOrder_t order = CUBLASLT_ORDER_COL;
    (void)order;
    cublasGemmEx(at::cuda::getCurrentCUDABlasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                 b.data_ptr(), CUDA_R_64F, N, a.data_ptr(), CUDA_R_64F, K, &beta,
                 c.data_ptr(), CUDA_R_64F, N, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
    return c;
}

torch::Tensor masked(torch::Tensor x, torch::Tensor m) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    masked_copy<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), m.data_ptr<unsigned char>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="fp64_gemm_mask", cpp_sources="torch::Tensor dgemm(torch::Tensor a, torch::Tensor b);\ntorch::Tensor masked(torch::Tensor x, torch::Tensor m);",
                  cuda_sources=src, functions=["dgemm", "masked"], extra_ldflags=["-lcublas", "-lcublasLt"])


class ModelNew(nn.Module):
    def forward(self, a, b, mask):
        out = ext.dgemm(a.double().contiguous(), b.double().contiguous()).float()
        return ext.masked(out.contiguous(), mask.to(torch.uint8).contiguous())
