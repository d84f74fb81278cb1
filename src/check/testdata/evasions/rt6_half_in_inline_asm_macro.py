# expect: precision_downcast
# Literals are prose only outside inline assembly: a macro handing its
# argument to asm keeps every literal read (the PTX converts to f16).
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/extension.h>
#define PTX(s) asm volatile(s : "=h"(h) : "f"(f))
__device__ void cvt(float f, unsigned short& h) { PTX("cvt.rn.f16.f32 %0, %1;"); }
torch::Tensor fwd(torch::Tensor x) { return x; }
"""

ext = load_inline(name="ext_asm", cpp_sources=SRC, functions=["fwd"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.fwd(x)
