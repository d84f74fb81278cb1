# expect: dynamic_code
# TorchScript compiled from a C++ string: code in a literal, which no rule
# reads (string literals of native sources are prose to the precision rules).
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <torch/script.h>
torch::Tensor fwd(torch::Tensor x) {
  static auto cu = torch::jit::compile("def f(x):\n    return x.half().float()\n");
  return cu->run_method("f", x).toTensor();
}
"""

ext = load_inline(name="ext_ts", cpp_sources=SRC, functions=["fwd"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.fwd(x)
