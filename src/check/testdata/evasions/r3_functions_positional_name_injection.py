# expect: dynamic_code
# A function name (fourth positional argument) carrying C++ into the generated PYBIND11_MODULE.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

# torch writes m.def("<name>", torch::wrap_pybind_function(<name>), "<name>"); on one line: the name closes the
# call and the rest of the line becomes a comment.
mod = load_inline("a37_functions_positional_name_injection", cpp_src, [],
                  ['fwd", fwd); pybind11::object o = m; o.attr("fwd_src") = pybind11::make_tuple(1); //'])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
