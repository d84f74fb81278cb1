# Honest: the usual CHECK_* macros, a CUDA_CHECK wrapper, #pragma unroll and templates.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
#define CUDA_CHECK(call) do { cudaError_t e = (call); TORCH_CHECK(e == cudaSuccess, cudaGetErrorString(e)); } while (0)
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

template <int VEC>
__global__ void scale_kernel(const float4* __restrict__ x, float4* __restrict__ y, float s, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[i];
        #pragma unroll
        for (int k = 0; k < VEC; ++k) { (&v.x)[k] *= s; }
        y[i] = v;
    }
}

torch::Tensor scale(torch::Tensor x, double s) {
    CHECK_INPUT(x);
    TORCH_CHECK(x.numel() % 4 == 0, "numel must be a multiple of 4");
    auto y = torch::empty_like(x);
    int n4 = x.numel() / 4;
    scale_kernel<4><<<DIV_UP(n4, 256), 256>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                              reinterpret_cast<float4*>(y.data_ptr<float>()), (float)s, n4);
    CUDA_CHECK(cudaGetLastError());
    return y;
}
"""

ext = load_inline(name="scale_vec4", cpp_sources="torch::Tensor scale(torch::Tensor x, double s);",
                  cuda_sources=cuda_src, functions=["scale"], extra_cuda_cflags=["-O3", "-DNDEBUG=1"])


class ModelNew(nn.Module):
    def __init__(self, s: float = 0.125):
        super().__init__()
        self.s = s

    def forward(self, x):
        return ext.scale(x.contiguous(), self.s)
