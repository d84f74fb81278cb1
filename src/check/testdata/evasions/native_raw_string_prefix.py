# expect: dynamic_code
# A u8R raw string whose quote, read as a plain string's, would open a
# literal running to the end of the line: the handle parameter and its call
# after it stay code.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r'''
#include <torch/extension.h>
static const char* tag = u8R"(")"; torch::Tensor scale(torch::Tensor x, pybind11::handle hook) { hook(); return x * 2; } static const char* e = "";
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
'''
ext = load_inline(name="raw_prefix_ext", cpp_sources=CPP)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.scale(x, print)
