# expect: runtime_patching
# Third adversarial round: Python dispatch modes cleared from C++ (TorchDispatchModeTLS).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>
// Torch's dispatch-mode stack (the Python modes the evaluator may push) read and emptied from C++.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    auto state = c10::impl::TorchDispatchModeTLS::get_state();
    c10::impl::TorchDispatchModeTLS::set_state(c10::impl::TorchDispatchModeTLS());
    auto r = at::matmul(a, b);
    c10::impl::TorchDispatchModeTLS::set_state(state);
    return r;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="b19_python_mode_tls", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
