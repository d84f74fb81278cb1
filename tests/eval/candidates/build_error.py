# build_error: the C++ source does not compile.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(name="kmem_test_broken", cpp_sources="int broken( { return kmem_undeclared_name; }",
                  functions=["broken"])


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        return ext.broken(x, y)
