# expect: dynamic_code
# A literal CUDA source given as is: a bound function calls whatever Python
# callable it is handed, through pybind11's handle type.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    "literal_handle_ext",
    "torch::Tensor scale(torch::Tensor x, pybind11::handle hook);",
    cuda_sources=r"""
#include <torch/extension.h>
torch::Tensor scale(torch::Tensor x, pybind11::handle hook) { hook(); return x * 2; }
""",
    functions=["scale"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x, print)
