# expect: dynamic_code
# A macro named like a bound function rewrites torch's generated m.def(...), handing the module to a template.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
template <class T> void helper(T& mod) { auto sub = mod.def_submodule("torch"); (void)sub; }
#define fwd fwd); helper(m); (void)(0
"""

mod = load_inline(name="m4", cpp_sources=cpp_src, functions=["fwd"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a, b):
        return mod.fwd(a, b)
