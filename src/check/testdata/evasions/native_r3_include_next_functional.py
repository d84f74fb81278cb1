# expect: dynamic_code
# Third adversarial round: pybind11/functional.h by #include_next: Python callables become std::function.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include_next <pybind11/functional.h>
#include <functional>
// std::function caster: any Python callable becomes a C++ callable.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, std::function<torch::Tensor(torch::Tensor, torch::Tensor)> cb) {
    return cb(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a27_include_next_functional", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, torch.matmul)
