# expect: dynamic_code
# Third adversarial round: pybind11/functional.h by a path spelled ./pybind11/...
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <./pybind11/functional.h>
#include <functional>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, std::function<torch::Tensor(torch::Tensor, torch::Tensor)> cb) {
    return cb(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a29_dot_slash_include_functional", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, torch.matmul)
