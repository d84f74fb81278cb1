# expect: runtime_patching
# CPU allocator replaced: write c10::allocator_array[CPU] (fifth adversarial round).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
namespace c10 { extern C10_API Allocator* allocator_array[]; }
struct Mine : c10::Allocator { c10::DataPtr allocate(size_t n) const override { void* p = malloc(n);
  return {p, p, &free, c10::Device(c10::DeviceType::CPU)}; } c10::DeleterFnPtr raw_deleter() const override { return &free; } };
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    static Mine mine;
    c10::allocator_array[static_cast<int>(c10::DeviceType::CPU)] = &mine;
    return at::matmul(a, b);
}
"""
module = load_inline(name="cpu_allocator_array_write", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
