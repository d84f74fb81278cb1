# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <memory>
#include <type_traits>
using namespace std;
torch::Tensor go(torch::Tensor x) {
    auto t = make_unique< ::thread>([x]() mutable { x.mul_(2); });
    t->detach();
    return x;
}
"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
