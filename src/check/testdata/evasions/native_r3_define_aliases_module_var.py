# expect: dynamic_code
# Third adversarial round: A macro naming the module variable inside PYBIND11_MODULE.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#define THE_MODULE m
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
    auto& mod = THE_MODULE;
    using Acc = decltype(mod.doc());
    Acc(mod, "extra") = pybind11::make_tuple(1);
}
"""

mod = load_inline(name="a40_define_aliases_module_var", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
