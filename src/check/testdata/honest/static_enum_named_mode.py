# Honest: a static enum value of a type of its own named ...Mode (no guard: the leaked-guard
# family takes only torch's guard and grad-mode types).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline
source = r"""
#include <torch/extension.h>
enum class ReduceMode { Sum, Max };
static const ReduceMode kMode = ReduceMode::Sum;
torch::Tensor go(torch::Tensor a) { return kMode == ReduceMode::Sum ? a.sum() : a.max(); }
"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a):
        return module.go(a)
