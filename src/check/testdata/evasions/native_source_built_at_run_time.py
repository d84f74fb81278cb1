# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# The source the checker would read is built at run time: no rule on native
# code (precision, files, threads, Python calls) sees it.
SRC = bytes([35, 105, 110, 99, 108, 117, 100, 101]).decode() + " <torch/extension.h>\n"
ext = load_inline(name="built", cpp_sources=SRC, functions=["run"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.run(x)
