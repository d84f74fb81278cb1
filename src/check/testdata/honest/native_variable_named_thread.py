# Honest: a C++ variable named thread after using namespace std (no std::thread made).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
using namespace std;

__global__ void scale_kernel(const float* x, float* y, int n) {
    int thread = blockIdx.x * blockDim.x + threadIdx.x;
    if (thread < n) y[thread] = 2.0f * x[thread];
}

torch::Tensor scale(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""
cpp_source = "torch::Tensor scale(torch::Tensor x);"
module = load_inline(name="scale_thread_var", cpp_sources=cpp_source, cuda_sources=cuda_source,
                     functions=["scale"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return module.scale(x)
