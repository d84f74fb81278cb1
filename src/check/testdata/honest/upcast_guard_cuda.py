# Honest: the C++ side refuses reduced precision explicitly and upcasts on the Python side.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp = """
#include <torch/extension.h>
torch::Tensor swish(torch::Tensor x) {
    // Inputs arrive as fp32; a kHalf or kBFloat16 tensor is refused, not computed in __half.
    TORCH_CHECK(x.scalar_type() != at::kHalf && x.scalar_type() != at::kBFloat16, "upcast first");
    return x * torch::sigmoid(x);
}
"""
cuda = """
#include <torch/extension.h>
__global__ void swish_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v / (1.0f + __expf(-v)); }
}
torch::Tensor swish_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    swish_kernel<<<(n + 127) / 128, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="swish_guard", cpp_sources=[cpp, "torch::Tensor swish_cuda(torch::Tensor x);"],
                  cuda_sources=cuda, functions=["swish", "swish_cuda"])


class ModelNew(nn.Module):
    def forward(self, x):
        if x.dtype is torch.float16 or x.dtype is torch.bfloat16:
            x = x.float()
        assert x.dtype not in {torch.half, torch.bfloat16}
        return ext.swish_cuda(x.contiguous())
