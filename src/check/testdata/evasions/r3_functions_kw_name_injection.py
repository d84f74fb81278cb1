# expect: dynamic_code
# A function name (functions= keyword) carrying C++ into the generated PYBIND11_MODULE.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

mod = load_inline(name="a38_functions_kw_name_injection", cpp_sources=cpp_src,
                  functions=['fwd", fwd); auto& mm = m; using Acc = decltype(mm.doc()); Acc(mm, "x") = mm; //'],
                  verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
