# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

HEAD = "#include <torch/extension.h>\n#include <thread>\ntorch::Tensor f(torch::Tensor x){ std::thr"
TAIL = "ead t([x]() mutable { x.mul_(2); }); t.detach(); return x; }"
SRC = HEAD + TAIL
mod = load_inline(name="split_names", cpp_sources=SRC, functions=["f"])


class ModelNew(nn.Module):
    def forward(self, x):
        return mod.f(x)
