import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
#include <vector>

template <typename scalar_t>
static void row_sum(const scalar_t* x, scalar_t* y, int64_t rows, int64_t cols) {
  at::parallel_for(0, rows, 16, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      scalar_t acc = 0;
      for (int64_t c = 0; c < cols; ++c) acc += x[r * cols + c];
      y[r] = acc;
    }
  });
}

torch::Tensor sum_rows(torch::Tensor x) {
  auto in = x.contiguous();
  auto out = torch::empty({in.size(0)}, in.options());
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "sum_rows", [&] {
    row_sum<scalar_t>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in.size(0), in.size(1));
  });
  return out;
}
"""
ext = load_inline(name="h05_sum_rows", cpp_sources=SRC, functions=["sum_rows"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.sum_rows(x.reshape(x.shape[0], -1))
