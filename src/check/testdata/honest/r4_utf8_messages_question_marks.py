# Honest: messages with UTF-8 text and a '??)' in a C++ string (no trigraph under C++17).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Fused (x − μ)·γ scaling; ≈2× faster than the two-op torch version.
cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// y = (x − mean) × gamma   (per channel; N×C×H×W layout)
__global__ void center_scale_kernel(const float* __restrict__ x, const float* __restrict__ mean,
                                    const float* __restrict__ gamma, float* __restrict__ y,
                                    int total, int C, int HW) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        int c = (i / HW) % C;
        y[i] = (x[i] - mean[c]) * gamma[c];
    }
}

torch::Tensor center_scale(torch::Tensor x, torch::Tensor mean, torch::Tensor gamma) {
    TORCH_CHECK(x.dim() == 4, "expected an N×C×H×W input, got ", x.dim(), " dims");
    TORCH_CHECK(mean.numel() == x.size(1), "mean must have C entries (why??) ");
    auto y = torch::empty_like(x);
    int total = x.numel(), C = x.size(1), HW = x.size(2) * x.size(3);
    center_scale_kernel<<<(total + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), mean.data_ptr<float>(), gamma.data_ptr<float>(), y.data_ptr<float>(), total, C, HW);
    return y;
}
"""

ext = load_inline(
    name="center_scale_ext",
    cpp_sources="torch::Tensor center_scale(torch::Tensor x, torch::Tensor mean, torch::Tensor gamma);",
    cuda_sources=cuda_source,
    functions=["center_scale"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.mean = nn.Parameter(torch.zeros(channels))
        self.gamma = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        return ext.center_scale(x.contiguous(), self.mean, self.gamma)
