# expect: dynamic_code
# native_template_module_object, with a '}' in the module's docstring: read
# as the end of PYBIND11_MODULE's body, it hid the module passed to bind().
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
  m.doc() = "}";
  m.def("scale", &scale);
  bind(m);
}
"""

ext = load_inline(name="brace_module_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
