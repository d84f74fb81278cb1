# expect: dynamic_code
# A bound function takes a Python object and writes one of its attributes
# through pybind11's object interface (no C-API name, no dunder string).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
void tune(pybind11::object target, double value) { target.attr("scale") = value; }
torch::Tensor scale(torch::Tensor x) { return x * 2; }
"""

ext = load_inline(name="object_attr_ext", cpp_sources=CPP, functions=["tune", "scale"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
