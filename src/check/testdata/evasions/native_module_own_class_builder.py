# expect: dynamic_code
# A template of the source's own named class_ is handed the module as
# pybind11's class builder would be, and deduces pybind11's object type from it.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
template <class T> struct class_ {
  template <class M> class_(M& m, const char*) { m.def("poke", [](typename M::object ns) { ns["flag"] = 1; }); }
};
torch::Tensor scale(torch::Tensor x) { return x * 2; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale);
  class_<int>(m, "x");
}
"""

ext = load_inline(name="own_class_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
