# expect: dynamic_code
# The root folder as an include path, then #include <proc/self/environ>: include folders are an allow-list.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
// With the root on the include path this header is the process environment file, read at build time; its
// text comes back in the compiler errors (the build_error detail handed to the model).
#include <proc/self/environ>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a46_include_root_proc", cpp_sources=cpp_src, extra_include_paths=["/"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
