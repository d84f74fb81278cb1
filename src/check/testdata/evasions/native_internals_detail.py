# expect: dynamic_code
# pybind11's internals (every registered type, the builtins) through its
# detail namespace, named under an alias and composed with a format call.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

NS = "detail"
CPP = """
#include <torch/extension.h>
namespace pb = pybind11;
torch::Tensor scale(torch::Tensor x) {{
  auto& internals = pb::{ns}::get_internals();
  (void)internals;
  return x * 2;
}}
""".format(ns=NS)

ext = load_inline(name="internals_ext", cpp_sources=CPP, functions=["scale"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
