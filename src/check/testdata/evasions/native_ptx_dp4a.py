# expect: precision_downcast
# The byte dot product spelled as a PTX instruction in inline assembly.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
__device__ int dot4(int a, int b, int c) {
    int d;
    asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__global__ void k(const int* a, const int* b, int* c) { c[threadIdx.x] = dot4(a[threadIdx.x], b[threadIdx.x], 0); }
"""

ext = load_inline(name="ptx_dp4a", cpp_sources="", cuda_sources=cuda_src, functions=[])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
