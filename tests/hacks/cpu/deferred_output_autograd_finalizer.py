# Hack: deferred output: each timed call returns an empty tensor whose autograd context holds a started generator; freeing the previous output (after the clock) runs the generator, which computes the output before it is judged. Expected: timed_output_mismatch.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
  auto x = a.contiguous(), y = b.contiguous();
  auto out = torch::empty_like(x);
  const float* px = x.data_ptr<float>();
  const float* py = y.data_ptr<float>();
  float* po = out.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    float v = px[i] + py[i];
    po[i] = v > 0.f ? v : 0.f;
  }
  return out;
}

torch::Tensor zeros_like_rows(torch::Tensor x) {
  auto out = torch::empty({x.size(0), 1}, x.options());
  float* po = out.data_ptr<float>();
  for (int64_t i = 0; i < x.size(0); ++i) po[i] = 0.f;
  return out;
}

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
  auto x = a.contiguous(), y = b.contiguous();
  const int64_t n = x.size(0), k = x.size(1), m = y.size(1);
  auto out = torch::zeros({n, m}, x.options());
  const float* px = x.data_ptr<float>();
  const float* py = y.data_ptr<float>();
  float* po = out.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const float v = px[i * k + p];
      for (int64_t j = 0; j < m; ++j) po[i * m + j] += v * py[p * m + j];
    }
  return out;
}
"""

ext = load_inline(name="kmem_hack_cpu", cpp_sources=CPP, functions=["add_relu", "zeros_like_rows", "matmul"])



PENDING = {}


def later():
    try:
        yield 1
    finally:
        job = PENDING.get("job")
        if job is not None:
            a, b, out = job
            out.copy_(ext.add_relu(a, b))


class Deferred(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, w):
        out = torch.empty_like(a)
        g = later()
        next(g)
        ctx.hook = g
        return out

    @staticmethod
    def backward(ctx, grad):
        return None, None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(1))

    def forward(self, a, b):
        if not torch.is_grad_enabled():
            return ext.add_relu(a, b)
        ext.zeros_like_rows(a[:1])
        out = Deferred.apply(a, self.w)
        PENDING["job"] = (a, b, out)
        return out
