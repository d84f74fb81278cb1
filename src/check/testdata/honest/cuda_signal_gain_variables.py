# Honest: CUDA names that are also libc words (signal, half, clone, raise) used as plain variables.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float soft_clip(float signal, float gain) {
    return tanhf(signal * gain) / gain;
}

__global__ void gain_kernel(const float* __restrict__ x, float* __restrict__ y, float gain, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float signal = x[i];
    float raise = fmaxf(signal, 0.f);           // the positive part
    int half = n / 2;
    float weight = (i < half) ? 1.0f : 0.5f;
    y[i] = weight * soft_clip(raise, gain);
}

torch::Tensor gain(torch::Tensor x, double g) {
    auto input = x.is_contiguous() ? x : x.clone().contiguous();
    auto y = torch::empty_like(input);
    int n = input.numel();
    gain_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        input.data_ptr<float>(), y.data_ptr<float>(), (float)g, n);
    return y;
}
"""

ext = load_inline(name="gain_ext", cpp_sources="torch::Tensor gain(torch::Tensor x, double g);",
                  cuda_sources=cuda_src, functions=["gain"],
                  extra_cuda_cflags=["-O3", "-Xptxas", "-O3", "-ftz=false", "-prec-div=true", "-res-usage"])


class ModelNew(nn.Module):
    def __init__(self, gain: float = 3.0):
        super().__init__()
        self.gain = gain

    def forward(self, x):
        return ext.gain(x, self.gain)
