# expect: runtime_patching
# Third adversarial round: cuDNN switched off from C++ (at::globalContext().setUserEnabledCuDNN).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
void off() { at::globalContext().setUserEnabledCuDNN(false); }
"""
mod = load_inline(name="c20", cpp_sources=src, functions=["off"], verbose=False)
mod.off()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)
