# expect: dynamic_code
# A -D flag holding ';': build.ninja's commands run under /bin/sh, so flags hold only plain characters.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor fwd(torch::Tensor a) { return a; }"

# build.ninja's commands run under /bin/sh: a -D flag with a ';' runs a command at build time.
mod = load_inline(name="sh_flag", cpp_sources=cpp_src, functions=["fwd"], extra_cflags=["-O3", "-DX;id>/tmp/o"])


class ModelNew(nn.Module):
    def forward(self, a):
        return mod.fwd(a)
