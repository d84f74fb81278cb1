# Softsign in one C++ pass: x / (1 + |x|) per element, where eager PyTorch
# runs three operations and allocates two temporaries.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor softsign(torch::Tensor x) {
  auto in = x.contiguous();
  auto out = torch::empty_like(in);
  // __restrict__ and the count read once let the compiler vectorise the
  // loop (without them it stays scalar and loses to eager PyTorch).
  const float* __restrict__ src = in.data_ptr<float>();
  float* __restrict__ dst = out.data_ptr<float>();
  const int64_t n = in.numel();
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i] / (1.f + std::fabs(src[i]));
  return out;
}
"""

ext = load_inline(name="quickstart_softsign", cpp_sources=CPP, functions=["softsign"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softsign(x)
