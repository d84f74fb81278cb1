# expect: runtime_patching
# A guard with static storage: made when the library loads and destroyed only
# at exit, so grad mode stays off for everything after the import, torch's
# own work included; no `new`, no setter.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
static const torch :: NoGradGuard kept;
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    return at::matmul(a, b);
}
"""
module = load_inline(name="static_guard", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
