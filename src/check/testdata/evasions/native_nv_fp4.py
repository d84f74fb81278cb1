# expect: precision_downcast
# Values rounded through CUDA's 4-bit float type.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <cuda_fp4.h>
__global__ void round4(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = float(__nv_fp4_e2m1(x[i]));
}
"""

ext = load_inline(name="fp4_round", cpp_sources="", cuda_sources=cuda_src, functions=[])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
