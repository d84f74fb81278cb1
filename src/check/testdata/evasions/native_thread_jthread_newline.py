# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <thread>
torch::Tensor go(torch::Tensor x) {
    static std::
        jthread t([x]() mutable { x.mul_(2); });
    return x;
}
"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_cflags=["-std=c++20"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
