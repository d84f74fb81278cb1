# expect: dynamic_code
# module_::import called on a default-made module object, which names no
# pybind11 name but the module_ a binding may: C++ imports what it likes.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    "mod_import_ext",
    "torch::Tensor scale(torch::Tensor x);",
    cuda_sources=r"""
#include <torch/extension.h>
torch::Tensor scale(torch::Tensor x) { py::module_ mod; auto t = mod.import("this"); return x * 2; }
""",
    functions=["scale"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x)
