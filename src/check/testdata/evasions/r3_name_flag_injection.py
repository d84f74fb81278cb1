# expect: dynamic_code
# load_inline's name written unquoted into build.ninja's flags (-wrapper runs a program): the name must be an identifier.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }
"""

# torch writes cflags = -DTORCH_EXTENSION_NAME=<name> ... unquoted into build.ninja: the name carries flags
# the build-flag allow-list refuses (-wrapper runs a program of the candidate's choosing for every compile).
mod = load_inline(name="kx -wrapper /bin/sh,-c,id>/tmp/o;exec${IFS}$0${IFS}$@", cpp_sources=cpp_src,
                  functions=["fwd"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
