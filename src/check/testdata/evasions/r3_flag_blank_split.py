# expect: dynamic_code
# An allowed prefix carrying more flags after a blank: each flag a string makes is judged.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor fwd(torch::Tensor a) { return a; }"

# One list item, three flags once build.ninja joins them by blanks: the allowed -arch= prefix carried the rest.
mod = load_inline(name="blank_flag", cpp_sources=cpp_src, functions=["fwd"],
                  extra_cuda_cflags=["-arch=sm_90 -Xcompiler -wrapper,/bin/sh"])


class ModelNew(nn.Module):
    def forward(self, a):
        return mod.fwd(a)
