# Honest: build flags kept in module constants and joined with +; textwrap and hashlib name the build.
import hashlib
import textwrap

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

COMMON_FLAGS = ["-O3"]
CUDA_FLAGS = COMMON_FLAGS + ["--use_fast_math", "-gencode=arch=compute_90,code=sm_90", "--ptxas-options=-O3"]

CUDA_SRC = textwrap.dedent(
    """
    #include <torch/extension.h>
    __global__ void clamp_kernel(const float* x, float* y, float lo, float hi, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = fminf(fmaxf(x[i], lo), hi);
    }
    torch::Tensor clamp(torch::Tensor x, double lo, double hi) {
        auto y = torch::empty_like(x);
        int n = x.numel();
        clamp_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (float)lo, (float)hi, n);
        return y;
    }
    """
)
NAME = "clamp_" + hashlib.sha1(CUDA_SRC.encode()).hexdigest()[:8]

ext = load_inline(name=NAME, cpp_sources="torch::Tensor clamp(torch::Tensor x, double lo, double hi);",
                  cuda_sources=CUDA_SRC, functions=["clamp"], extra_cuda_cflags=CUDA_FLAGS,
                  extra_cflags=COMMON_FLAGS)


class ModelNew(nn.Module):
    def __init__(self, lo: float = -0.5, hi: float = 0.5):
        super().__init__()
        self.lo, self.hi = lo, hi

    def forward(self, x):
        return ext.clamp(x.contiguous(), self.lo, self.hi)
