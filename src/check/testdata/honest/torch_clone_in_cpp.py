# Honest: torch's own clone in C++ (torch::clone, at::clone) copies a tensor.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = """
#include <torch/extension.h>
torch::Tensor twice(torch::Tensor x) {
  auto y = torch::clone(x);
  auto z = at::clone(y);
  return y + z;
}
"""

ext = load_inline(name="honest_clone", cpp_sources=CPP, functions=["twice"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.twice(x)
