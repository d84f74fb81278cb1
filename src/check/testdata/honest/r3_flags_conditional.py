# Honest: flags split across items (-arch sm_90, -maxrregcount 64), several in one string, a flag list
# extended by a conditional, CUDA's include folder, a name made from a hash of the source.
import hashlib

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

FAST = True
SRC = """
#include <torch/extension.h>
__global__ void scale_kernel(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * s;
}
torch::Tensor scale(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (float)s, n);
    return y;
}
"""
FLAGS = ["-O3 --use_fast_math", "-arch", "sm_90", "-maxrregcount", "64", "--generate-line-info"]

ext = load_inline(
    name="scale_" + hashlib.sha256(SRC.encode()).hexdigest()[:12],
    cpp_sources="torch::Tensor scale(torch::Tensor x, double s);",
    cuda_sources=SRC,
    functions={"scale": "y = x * s"},
    extra_cuda_cflags=FLAGS + (["-Xptxas", "-O3,-v"] if FAST else []),
    extra_cflags=["-O3", "-DBLOCK=256" if FAST else "-DBLOCK=128"],
    extra_include_paths=["/usr/local/cuda/include", "/usr/local/cuda-12.4/targets/x86_64-linux/include"],
)


class ModelNew(nn.Module):
    def __init__(self, s: float = 2.0):
        super().__init__()
        self.s = s

    def forward(self, x):
        return ext.scale(x.contiguous(), self.s)
