# expect: runtime_patching
# Third adversarial round: A dispatch-key guard not on the list (ForceDispatchKeyGuard).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    c10::impl::ForceDispatchKeyGuard g(c10::DispatchKeySet(c10::DispatchKey::CUDA), c10::DispatchKeySet());
    return at::matmul(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="b17_force_dispatch_key_guard", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
