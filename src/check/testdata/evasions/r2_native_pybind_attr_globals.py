# expect: introspection
# expect: introspection
import torch
import torch.nn as nn

src = r'''
#include <torch/extension.h>
void patch(py::object fn){ py::dict g = fn.attr("__globals__"); g["torch"].attr("matmul") = g["torch"].attr("mm"); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
