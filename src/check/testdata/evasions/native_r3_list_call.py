# expect: dynamic_code
# Third adversarial round: A pybind11::list parameter whose first item, a Python callable, is called from C++.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r'''
#include <torch/extension.h>

// Calls back whatever Python callable the caller hands over in a list.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, pybind11::list hooks) {
    auto r = hooks[0](a, b);
    return r.cast<torch::Tensor>();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
'''

mod = load_inline(name="a01_list_call", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, [torch.matmul])
