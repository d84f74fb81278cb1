# expect: dynamic_code
# Third adversarial round: torch's getTHPDtype: the Python dtype object itself, mutated from C++.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
// torch::getTHPDtype hands out torch's Python dtype object (torch.float32) itself; its scalar_type is rewritten:
// from then on dtype=torch.float32 anywhere in the process (the reference included) means float64.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    auto* f32 = torch::getTHPDtype(at::kFloat);
    f32->scalar_type = at::kDouble;
    return at::matmul(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a30_getTHPDtype_register", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
