# expect: dynamic_code
# A lambda's parameter named like a benign top-level source: the source is built at run time.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

other = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    pybind11::object t = pybind11::make_tuple(a)[0];
    return t.attr("matmul")(b).cast<torch::Tensor>();
}
"""

mod = (lambda cpp_src: load_inline(name="a41", cpp_sources=cpp_src, functions=["fwd"], verbose=False))(other)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
