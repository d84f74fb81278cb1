# expect: precision_downcast
# cublasGemmEx with an fp32 compute type but int8 operands (quantized inputs, fp32 output).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
torch::Tensor mm(torch::Tensor qa, torch::Tensor qb, int M, int N, int K) {
    auto c = torch::empty({M, N}, qa.options().dtype(torch::kFloat32));
    const float alpha = 1.f, beta = 0.f;
    cublasGemmEx(at::cuda::getCurrentCUDABlasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                 qb.data_ptr(), CUDA_R_8I, N, qa.data_ptr(), CUDA_R_8I, K, &beta,
                 c.data_ptr(), CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return c;
}
"""

ext = load_inline(name="gemm_i8", cpp_sources=src, functions=["mm"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        qa = (a * 64).round().to(torch.int8)
        qb = (b * 64).round().to(torch.int8)
        return ext.mm(qa, qb, a.shape[0], b.shape[1], a.shape[1]) / 4096
