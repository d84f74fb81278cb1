# Honest: a helper of the file's own named `compile` that builds the extension.
import functools

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SOURCE = """
#include <torch/extension.h>
__global__ void square_kernel(const float* x, float* y, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    square_kernel<<<(n + 511) / 512, 512>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""


@functools.lru_cache(maxsize=None)
def compile(name: str = "square_ext"):
    return load_inline(name=name, cpp_sources="torch::Tensor square(torch::Tensor x);",
                       cuda_sources=SOURCE, functions=["square"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = compile()

    def forward(self, x):
        return self.ext.square(x.contiguous())
