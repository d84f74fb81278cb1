import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <c10/core/thread_pool.h>
// c10's thread pool, named after a using-directive: work queued to run
// after the call returns.
using namespace c10;
static ThreadPool* pool = nullptr;
torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
  auto x = a.contiguous(), y = b.contiguous();
  auto out = torch::empty_like(x);
  const float* px = x.data_ptr<float>();
  const float* py = y.data_ptr<float>();
  float* po = out.data_ptr<float>();
  if (pool == nullptr) pool = new ThreadPool(1);
  pool->run([] {});
  for (int64_t i = 0; i < x.numel(); ++i) {
    float v = px[i] + py[i];
    po[i] = v > 0.f ? v : 0.f;
  }
  return out;
}
"""

ext = load_inline(name="kmem_hack_native_thread_pool_using", cpp_sources=CPP, functions=["add_relu"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return ext.add_relu(a, b)
