# expect: dynamic_code
# .format() of a list: Python writes its repr, the checker wrote nothing; only strings and numbers are substituted.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

TEMPLATE = r"""
#include <torch/extension.h>
/* {0} */
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {{ return at::matmul(a, b); }}
"""

cpp_src = TEMPLATE.format(["*/ pybind11::object grab(pybind11::list l) { pybind11::object o = l[0]; return o.attr(\"matmul\"); } /*"])

mod = load_inline(name="a24_format_list_repr", cpp_sources=cpp_src, functions=["fwd", "grab"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
