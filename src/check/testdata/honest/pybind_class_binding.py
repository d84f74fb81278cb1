import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>

struct Scaler {
  float k;
  explicit Scaler(float k) : k(k) {}
  torch::Tensor apply(torch::Tensor x) const {
    auto y = x.contiguous();
    auto out = torch::empty_like(y);
    const float* src = y.data_ptr<float>();
    float* dst = out.data_ptr<float>();
    for (int64_t i = 0; i < y.numel(); ++i) dst[i] = src[i] * k;
    return out;
  }
};

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  pybind11::class_<Scaler>(m, "Scaler")
      .def(pybind11::init<float>())
      .def("apply", &Scaler::apply)
      .def_readwrite("k", &Scaler::k);
}
"""

ext = load_inline(name="scaler_class_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def __init__(self, scale=2.0):
        super().__init__()
        self.scaler = ext.Scaler(scale)

    def forward(self, x):
        return self.scaler.apply(x)
