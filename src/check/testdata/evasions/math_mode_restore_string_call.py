# expect: precision_downcast
# cublas_saved_math_mode's SGEMM, its saved mode overwritten with TF32's (3)
# through a template's reference; a string holding "cublasSetMathMode(" made
# the overwriting call read as the setter giving the mode back.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

template <class T> void tweak(cublasHandle_t, const char*, T& m) { m = T(3); }

torch::Tensor sgemm(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.dtype() == torch::kFloat32 && b.dtype() == torch::kFloat32, "fp32 only");
    int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    cublasMath_t mode;
    cublasGetMathMode(handle, &mode);
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    const char* tag = "cublasSetMathMode("; tweak(handle, ")", mode);
    cublasSetMathMode(handle, mode);
    const float alpha = 1.f, beta = 0.f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                b.data_ptr<float>(), N, a.data_ptr<float>(), K, &beta, c.data_ptr<float>(), N);
    cublasSetMathMode(handle, mode);
    return c;
}
"""

ext = load_inline(name="sgemm_mode_trick", cpp_sources=src, functions=["sgemm"], with_cuda=True,
                  extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, A, B):
        return ext.sgemm(A.contiguous(), B.contiguous())
