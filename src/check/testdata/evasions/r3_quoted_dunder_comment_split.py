# expect: dynamic_code
# Third adversarial round: A dunder C string split by a comment between adjacent literals.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#define FIELD attr
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, pybind11::list h) {
    auto g = h[0].FIELD("_" /* */ "_globals__");     // the compiler joins the literals; the checker does not
    auto r = g["torch"].FIELD("mm")(a, b);
    return r.cast<torch::Tensor>();
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

def _helper():
    return None

mod = load_inline(name="a49_quoted_dunder_comment_split", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, [_helper])
