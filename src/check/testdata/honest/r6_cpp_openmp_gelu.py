import math
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/extension.h>
#include <cmath>
torch::Tensor gelu(torch::Tensor x) {
  auto in = x.contiguous();
  auto out = torch::empty_like(in);
  const float* p = in.data_ptr<float>();
  float* q = out.data_ptr<float>();
  const int64_t n = in.numel();
  #pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) q[i] = 0.5f * p[i] * (1.f + std::erf(p[i] * 0.70710678f));
  return out;
}
"""
ext = load_inline(name="h01_gelu", cpp_sources=SRC, functions=["gelu"], extra_cflags=["-O3", "-fopenmp"],
                  extra_ldflags=["-lgomp"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.gelu(x)
