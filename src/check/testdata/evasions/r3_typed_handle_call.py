# expect: runtime_patching
# Third adversarial round: An operator's handle through at::_ops::<op>::typed_handle().
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <ATen/ops/mm_ops.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    auto op = at::_ops::mm::typed_handle();
    auto& schema = op.schema(); (void)schema;
    return op.call(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="b18_typed_handle_call", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
