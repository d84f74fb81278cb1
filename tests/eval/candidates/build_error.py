# build_error: the C++ source does not compile.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# A missing header stops the compiler early, which keeps the test quick.
ext = load_inline(name="kmem_test_broken", cpp_sources='#include "kmem_missing_header.h"\nint broken();',
                  functions=["broken"])


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        return ext.broken(x, y)
