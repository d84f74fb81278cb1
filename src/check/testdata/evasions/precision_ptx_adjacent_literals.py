# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# C joins adjacent literals: the PTX below is cvt.rna.tf32.f32, whatever the
# pieces look like one by one.
CUDA = r"""
__device__ float round_tf32(float x) {
  unsigned r;
  asm("cvt.rna.t" "f32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}
"""

ext = load_inline(name="split_ptx", cpp_sources="", cuda_sources=CUDA, functions=[])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
