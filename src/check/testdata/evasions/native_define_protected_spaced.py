# expect: private_attribute
# `#  define protected public` (blanks after the hash) and `#undef class`
# redefine keywords, lifting the access control of torch's headers: the
# global context's TF32 switch is written as a field, with no call that an
# import (or a setter name) would show.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#  define protected public
#undef class
#include <torch/extension.h>
#include <ATen/Context.h>
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    at::globalContext().allow_tf32_cublas = true;
    return at::matmul(a, b);
}
"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
