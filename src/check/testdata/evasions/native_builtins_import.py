# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x) {
  auto builtins = pybind11::reinterpret_borrow<pybind11::dict>(PyEval_GetBuiltins());
  builtins["__imp" "ort__"]("gc");
  return torch::relu(x);
}
"""

ext = load_inline(name="builtins_import", cpp_sources=CPP, functions=["relu"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
