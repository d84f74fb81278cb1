# expect: dynamic_code
# functions=["m"]: the generated m.def hands the module itself to a wrap_pybind_function overload of the source's.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a) { return a; }
namespace torch {
template <class T> auto wrap_pybind_function(T& mod) { mod.def_submodule("cuda"); return [](torch::Tensor a) { return a; }; }
}
"""

# torch writes m.def("m", torch::wrap_pybind_function(m), "m"): the module itself handed to a template.
mod = load_inline(name="fm", cpp_sources=cpp_src, functions=["m", "fwd"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a):
        return mod.fwd(a)
