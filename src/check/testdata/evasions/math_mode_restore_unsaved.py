# expect: precision_downcast
# A "restored" mode that cublasGetMathMode never saved (a global set from a number elsewhere).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
cublasMath_t mode;
extern "C" void pick(int* m) { *m = 3; }
torch::Tensor sgemm(torch::Tensor a, torch::Tensor b) {
    int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    pick(reinterpret_cast<int*>(&mode));
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    cublasSetMathMode(handle, mode);
    const float alpha = 1.f, beta = 0.f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
                b.data_ptr<float>(), N, a.data_ptr<float>(), K, &beta, c.data_ptr<float>(), N);
    return c;
}
"""

ext = load_inline(name="math_mode_restore_unsaved", cpp_sources=src, functions=["sgemm"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def forward(self, A, B):
        return ext.sgemm(A.contiguous(), B.contiguous())
