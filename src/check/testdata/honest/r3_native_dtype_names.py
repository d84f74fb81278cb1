# Honest: torch dtypes and cuBLAS data types named in native code (an optional ScalarType parameter, a
# comparison, a switch, CUDA_R_32F given to cublasGemmEx, a header named ScalarType.h).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <c10/core/ScalarType.h>
#include <cublas_v2.h>
torch::Tensor fwd(torch::Tensor a, c10::optional<at::ScalarType> dtype) {
    at::ScalarType st = a.scalar_type();
    TORCH_CHECK(st == at::ScalarType::Float, "ScalarType(5) is not allowed");
    switch (st) { case at::ScalarType::Float: break; default: break; }
    cudaDataType_t t = CUDA_R_32F;
    (void)t;
    auto out = a.to(at::ScalarType::Float);
    float alpha = 1.0f, beta = 0.0f;
    cublasGemmEx(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, a.data_ptr(), CUDA_R_32F, 1, a.data_ptr(), CUDA_R_32F, 1,
                 &beta, out.data_ptr(), CUDA_R_32F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return out;
}
void proto(at::ScalarType);
"""

mod = load_inline(name="st", cpp_sources=cpp_src, functions=["fwd"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, a):
        return mod.fwd(a, None)
