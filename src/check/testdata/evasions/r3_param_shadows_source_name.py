# expect: dynamic_code
# A function's parameter named like a benign top-level source: the call passes other text (read at the call sites).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

real_src = r"""
#include <torch/extension.h>
#include <string>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    pybind11::object t = pybind11::make_tuple(a)[0];
    std::string k = std::string("_") + "_class__";
    pybind11::object cls = t.attr(k.c_str());
    return at::matmul(a, b);
}
"""


def build(cpp_src):
    return load_inline(name="a23_param_shadows_source_name", cpp_sources=cpp_src, functions=["fwd"], verbose=False)


mod = build(real_src)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
