# expect: dynamic_code
# native_template_module_object with PYBIND11_MODULE under a macro's name:
# the module's uses in its body went unread.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
template <class M> void bind(M& m) {
  m.def("poke", [](typename M::object ns) { ns["flag"] = 1; });
}
torch::Tensor scale(torch::Tensor x) { return x * 2; }
#define MOD PYBIND11_MODULE
MOD(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale);
  bind(m);
}
"""

ext = load_inline(name="module_macro_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
