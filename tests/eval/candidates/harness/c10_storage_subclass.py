# Held-out class 3, the clock, by native code (red-team round 2 of
# 2026-12-07): the output is a plain TensorImpl of torch's own class over a
# StorageImpl subclass of the candidate's, its reference count left one
# below zero, so that the harness's detach after the clock (a shallow copy
# made and dropped) brought it to zero and torch called the storage's
# release_resources, the candidate's, which computed the whole output from
# the inputs still in the stage (63x against 0.24x honest, pass). The
# harness now refuses a storage of any class but torch's own, and memory
# whose deleter is no allocator of torch's.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>

struct Lazy : public c10::StorageImpl {
  at::Tensor x_, y_;
  double scale_ = 1.0;
  bool armed_ = false;
  Lazy(size_t nbytes, c10::Allocator* alloc)
      : c10::StorageImpl(c10::StorageImpl::use_byte_size_t(), nbytes, alloc->allocate(nbytes), alloc, false) {}
  void release_resources() override {
    if (!armed_) return;
    armed_ = false;
    const float* px = x_.data_ptr<float>();
    const float* py = y_.data_ptr<float>();
    float* out = static_cast<float*>(data());
    for (int64_t i = 0; i < x_.numel(); ++i) out[i] = static_cast<float>(scale_) * px[i] + py[i];
    x_ = at::Tensor();
    y_ = at::Tensor();
    c10::raw::intrusive_ptr::incref(this);
    c10::raw::intrusive_ptr::incref(this);
  }
};

torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double scale) {
  auto plain = at::empty({0}, x.options());
  const size_t nbytes = static_cast<size_t>(x.numel()) * sizeof(float);
  auto owner = c10::make_intrusive<Lazy>(nbytes, c10::GetAllocator(c10::kCPU));
  Lazy* raw = owner.get();
  raw->x_ = x.contiguous();
  raw->y_ = y.contiguous();
  raw->scale_ = scale;
  auto t = at::detail::make_tensor<c10::TensorImpl>(c10::Storage(std::move(owner)), plain.key_set(), plain.dtype());
  t.unsafeGetTensorImpl()->set_sizes_contiguous(x.sizes());
  c10::raw::weak_intrusive_ptr::incref(raw);
  c10::raw::weak_intrusive_ptr::incref(raw);
  c10::raw::intrusive_ptr::decref(raw);
  c10::raw::intrusive_ptr::decref(raw);
  raw->armed_ = true;
  return t;
}
"""

ext = load_inline(name="c10_storage_subclass", cpp_sources=CPP, functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return ext.scale_add(x, y, self.scale)
