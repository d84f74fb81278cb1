# Honest: LayerNorm with Welford statistics in CUDA; AT_DISPATCH over float types only.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ln_cuda = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

template <typename scalar_t>
__global__ void layer_norm_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ w,
                                  const scalar_t* __restrict__ b, scalar_t* __restrict__ y,
                                  int N, float eps) {
    extern __shared__ float shm[];
    const scalar_t* xr = x + (size_t)blockIdx.x * N;
    scalar_t* yr = y + (size_t)blockIdx.x * N;
    float mean = 0.f, m2 = 0.f; int count = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        float v = static_cast<float>(xr[i]);
        ++count;
        float d = v - mean;
        mean += d / count;
        m2 += d * (v - mean);
    }
    shm[threadIdx.x] = mean * count;
    shm[blockDim.x + threadIdx.x] = m2 + mean * mean * count;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            shm[threadIdx.x] += shm[threadIdx.x + s];
            shm[blockDim.x + threadIdx.x] += shm[blockDim.x + threadIdx.x + s];
        }
        __syncthreads();
    }
    float mu = shm[0] / N;
    float var = shm[blockDim.x] / N - mu * mu;
    float rstd = rsqrtf(var + eps);
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        yr[i] = static_cast<scalar_t>((static_cast<float>(xr[i]) - mu) * rstd * static_cast<float>(w[i]) + static_cast<float>(b[i]));
}

torch::Tensor layer_norm(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    const at::cuda::OptionalCUDAGuard guard(device_of(x));
    int N = w.numel();
    int rows = x.numel() / N;
    auto y = torch::empty_like(x);
    const int threads = 256;
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm", [&] {
        layer_norm_kernel<scalar_t><<<rows, threads, 2 * threads * sizeof(float),
                                      at::cuda::getCurrentCUDAStream()>>>(
            x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(),
            y.data_ptr<scalar_t>(), N, (float)eps);
    });
    return y;
}
"""

ext = load_inline(name="ln_welford", cpp_sources="torch::Tensor layer_norm(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);",
                  cuda_sources=ln_cuda, functions=["layer_norm"], extra_cuda_cflags=["-O3", "--expt-relaxed-constexpr", "-lineinfo"])


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)

    def forward(self, x):
        return ext.layer_norm(x.contiguous(), self.ln.weight, self.ln.bias, self.ln.eps)
