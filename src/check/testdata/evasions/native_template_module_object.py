# expect: dynamic_code
# A template deduces pybind11's object type from the module (an injected
# base-class name), so no pybind11 name but module_ is written; it then
# subscripts a namespace the Python side hands it.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
template <class M> void bind(M& m) {
  m.def("poke", [](typename M::object ns) { ns["flag"] = 1; });
}
torch::Tensor scale(torch::Tensor x) { return x * 2; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale);
  bind(m);
}
"""

ext = load_inline(name="tmpl_module_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
