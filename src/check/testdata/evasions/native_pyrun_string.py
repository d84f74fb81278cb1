# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x) {
  PyRun_SimpleString("import time; time.perf_counter = lambda: 0.0");
  return torch::relu(x);
}
"""

ext = load_inline(name="pyrun_string", cpp_sources=CPP, functions=["relu"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
