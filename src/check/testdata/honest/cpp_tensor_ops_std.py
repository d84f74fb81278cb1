# Honest: a C++ (ATen) extension using std algorithms, lambdas and at::parallel_for on the CPU.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
#include <algorithm>
#include <numeric>
#include <vector>

torch::Tensor cumulative_max(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t rows = xc.size(0), cols = xc.size(1);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    at::parallel_for(0, rows, 16, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            float best = -std::numeric_limits<float>::infinity();
            for (int64_t c = 0; c < cols; ++c) {
                best = std::max(best, in[r * cols + c]);
                o[r * cols + c] = best;
            }
        }
    });
    std::vector<int64_t> idx(4);
    std::iota(idx.begin(), idx.end(), 0);
    idx.erase(std::remove(idx.begin(), idx.end(), 2), idx.end());
    return out;
}
"""

ext = load_inline(name="cummax_cpu", cpp_sources=cpp_src, functions=["cumulative_max"],
                  extra_cflags=["-O3", "-fopenmp"], extra_ldflags=["-lgomp"])


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        moved = x.movedim(self.dim, -1)
        flat = moved.reshape(-1, moved.shape[-1])
        return ext.cumulative_max(flat).reshape(moved.shape).movedim(-1, self.dim)
