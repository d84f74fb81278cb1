# expect: dynamic_code
# From a tensor argument to its Python object through torch's own C++ API,
# without naming the C-API or pybind11.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor scale(torch::Tensor x) {
  auto* slot = x.unsafeGetTensorImpl()->pyobj_slot();
  (void)slot;
  return x * 2;
}
"""

ext = load_inline(name="pyobj_slot_ext", cpp_sources=CPP, functions=["scale"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
