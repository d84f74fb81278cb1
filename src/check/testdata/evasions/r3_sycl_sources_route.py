# expect: dynamic_code
# A source given as sycl_sources (torch 2.11's fourth source list), which the
# native rules did not read: a pybind11::object attribute written from C++.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    name="sycl_route_ext",
    cpp_sources="torch::Tensor scale(torch::Tensor x);",
    sycl_sources="#include <torch/extension.h>\nvoid poke(pybind11::object o) { o.attr(\"k\") = 1; }\n"
                 "torch::Tensor scale(torch::Tensor x) { return x * 2; }\n",
    functions=["scale"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
