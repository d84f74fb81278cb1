# Honest: a binding module whose variable is named mod, not m, with a class.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
struct Scaler { float k; explicit Scaler(float k) : k(k) {} };
torch::Tensor scale(torch::Tensor x) { return x * 2; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, mod) {
  mod.def("scale", &scale);
  py::class_<Scaler>(mod, "Scaler").def(py::init<float>());
}
"""

ext = load_inline(name="modname_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
