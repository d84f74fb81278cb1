# Honest: h09 lock and env build (adversarial round 2, 2026-12-06).
import os
import threading

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

os.environ.setdefault("MAX_JOBS", "4")
os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"

_LOCK = threading.Lock()
_EXT = None

SRC = r"""
#include <torch/extension.h>
__global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
torch::Tensor run(torch::Tensor x, torch::Tensor y, double a) {
    auto out = y.clone();
    int n = x.numel();
    axpy<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), (float)a, n);
    return out;
}
"""


def get_ext():
    global _EXT
    with _LOCK:
        if _EXT is None:
            _EXT = load_inline(name="axpy_ext", cpp_sources="torch::Tensor run(torch::Tensor x, torch::Tensor y, double a);",
                               cuda_sources=SRC, functions=["run"], verbose=False)
    return _EXT


class ModelNew(nn.Module):
    def __init__(self, a: float = 0.5):
        super().__init__()
        self.a = a

    def forward(self, x, y):
        return get_ext().run(x.contiguous(), y.contiguous(), self.a)
