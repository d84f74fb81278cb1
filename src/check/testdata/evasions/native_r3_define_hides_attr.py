# expect: dynamic_code
# Third adversarial round: A macro naming attr, used as a member under its own name.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#define FIELD attr
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, pybind11::list h) {
    auto meth = h[0].FIELD("matmul");
    return meth(b).cast<torch::Tensor>();
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a39_define_hides_attr", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, [a])
