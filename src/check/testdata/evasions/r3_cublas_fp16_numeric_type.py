# expect: precision_downcast
# c10::ScalarType(5) and cudaDataType_t(2) by functional cast: fp16 inputs to cublasGemmEx.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
// fp16 inputs (cudaDataType 2 == CUDA_R_16F) through a ScalarType read from a tensor made by the C++ API.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    auto lowp = at::empty({1}, a.options().dtype(c10::ScalarType(5)));
    auto ha = a.to(lowp.scalar_type()).contiguous(), hb = b.to(lowp.scalar_type()).contiguous();
    int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    float alpha = 1.0f, beta = 0.0f;
    const auto lp = cudaDataType_t(2);
    cublasGemmEx(at::cuda::getCurrentCUDABlasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, hb.data_ptr(), lp, N,
                 ha.data_ptr(), lp, K, &beta, c.data_ptr(), CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return c;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="b05_cublas_fp16_numeric_type", cpp_sources=cpp_src, extra_ldflags=["-lcublas"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
