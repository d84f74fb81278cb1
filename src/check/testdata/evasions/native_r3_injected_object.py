# expect: dynamic_code
# Third adversarial round: pybind11's object type through an allowed type's injected base-class name.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
using L = pybind11::list;
// L::object and L::handle are pybind11::object / handle by injected class name.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, L hooks) {
    L::object o = hooks[0];
    L::handle h = o;
    h.inc_ref();
    return o(a, b).cast<torch::Tensor>();
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a07_injected_object", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, [torch.matmul])
