# expect: dynamic_code
# Third adversarial round: c10::impl::GPUTrace: the Python interpreter behind torch's CUDA trace hooks.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <c10/core/impl/GPUTrace.h>
// GPUTrace hands out torch's Python interpreter hooks without any Py* name.
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) {
    auto interp = c10::impl::GPUTrace::get_trace();
    if (interp) (*interp)->trace_gpu_device_synchronization(c10::DeviceType::CUDA);
    return at::matmul(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a35_gputrace_interpreter", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
