# Honest: a CPU C++ extension (no CUDA) for a CPU problem, vectorised by the compiler.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <cmath>
#include <vector>

// Softplus in fp32; the __half path of the CUDA version is not needed on the CPU.
torch::Tensor softplus(torch::Tensor x, double beta, double threshold) {
    TORCH_CHECK(!x.is_cuda(), "CPU tensor expected");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const int64_t n = xc.numel();
    const float b = (float)beta, t = (float)threshold;
    #pragma omp parallel for simd
    for (int64_t i = 0; i < n; ++i) {
        float v = in[i] * b;
        o[i] = v > t ? in[i] : std::log1p(std::exp(v)) / b;
    }
    return out;
}
"""

ext = load_inline(name="softplus_cpu", cpp_sources=cpp_src, functions=["softplus"],
                  extra_cflags=["-O3", "-fopenmp", "-march=native"], extra_ldflags=["-lgomp"])


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x):
        return ext.softplus(x, self.beta, self.threshold)
