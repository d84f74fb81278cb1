# Honest: a variable named half compared before && (red-team round 5, 2026-12-07): `i < half && p[i]`
# was read as the type `half&&` after a template's `<`.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor fold(torch::Tensor x) {
    auto y = x.contiguous().clone();
    float* p = y.data_ptr<float>();
    int64_t n = y.numel();
    int64_t half = n / 2;
    for (int64_t i = 0; i < half && p[i] < 0.f; ++i) p[i] = 0.f;
    for (int64_t i = 0; i < n; ++i) if (i < half || p[i] > 1.f) p[i] *= 0.5f;
    return y;
}
"""
ext = load_inline(name="fold_ext", cpp_sources=CPP, functions=["fold"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.fold(x)
