# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
namespace p = pybind11;
torch::Tensor relu(torch::Tensor x) {
  p::module_::import("time").attr("perf_counter") = p::cpp_function([] { return 0.0; });
  return torch::relu(x);
}
"""

ext = load_inline(name="pybind_import", cpp_sources=CPP, functions=["relu"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
