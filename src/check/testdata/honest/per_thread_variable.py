# Honest: per thread variable (adversarial round, 2026-12-06).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""

#include <torch/extension.h>
__global__ void rowsum(const float* x, float* y, int cols) {
    int items_per_thread = (cols + blockDim.x - 1) / blockDim.x;
    float acc = 0.f;
    for (int i = 0; i < items_per_thread; ++i) {
        int c = threadIdx.x * items_per_thread + i;
        if (c < cols) acc += x[blockIdx.x * cols + c];
    }
    atomicAdd(&y[blockIdx.x], acc);
}
torch::Tensor go(torch::Tensor x) {
    auto y = torch::zeros({x.size(0)}, x.options());
    rowsum<<<x.size(0), 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}

"""
module = load_inline(name="m", cpp_sources="torch::Tensor go(torch::Tensor x);", cuda_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
