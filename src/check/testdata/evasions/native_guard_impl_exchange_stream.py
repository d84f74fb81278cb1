# expect: runtime_patching
# current CUDA stream changed and not restored: getDeviceGuardImpl(CUDA)->exchangeStream (fifth adversarial round).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    auto* impl = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    impl->exchangeStream(c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::CUDA, 0), 3));
    return at::matmul(a, b);
}
"""
module = load_inline(name="exchange_stream_virtual", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
