# expect: dynamic_code
# native_template_module_object with the module reaching the template as
# what m.def gives back (the module itself), not as the variable.
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
  bind(m.def("scale", &scale));
}
"""

ext = load_inline(name="module_chain_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
