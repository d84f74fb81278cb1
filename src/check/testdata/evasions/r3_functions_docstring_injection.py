# expect: dynamic_code
# A functions docstring closing torch's generated m.def(...) string: functions must be literal identifiers, docstrings plain.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

# torch writes: m.def("fwd", torch::wrap_pybind_function(fwd), "<doc>");  -- the doc is pasted raw.
DOC = '"); pybind11::object o = m; o.attr("fwd2") = o.attr("fwd"); (void)("'

mod = load_inline(name="a21_functions_docstring_injection", cpp_sources=cpp_src,
                  functions={"fwd": DOC}, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
