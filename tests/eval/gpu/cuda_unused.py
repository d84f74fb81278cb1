# no_custom_kernel on CUDA: the same kernel is compiled, forward uses torch.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = """
#include <torch/extension.h>

__global__ void __launch_bounds__(256) scale_add_kernel(const float* x, const float* y, float* out,
                                                        float scale, int64_t n, int64_t stride) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) out[i * stride] = scale * x[i] + y[i];
}

torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double scale, int64_t stride) {
  auto out = torch::empty_like(x);
  int64_t n = x.numel();
  scale_add_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(),
                                             (float)scale, n, stride);
  return out;
}
"""

CPP_SOURCE = "torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double scale, int64_t stride);"

ext = load_inline(name="kmem_test_cuda_scale_add", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
