# Honest: the extension is built once behind a threading.Lock and cached per process.
import os
import threading
from typing import Optional

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")

_SRC = """
#include <torch/extension.h>
#include <thread>

// std::thread::hardware_concurrency() tells how many host threads exist; we only report it.
int64_t host_threads() { return (int64_t)std::thread::hardware_concurrency(); }

__global__ void relu_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] > 0.f ? in[i] : 0.f;
}

torch::Tensor relu(torch::Tensor x) {
    auto out = torch::empty_like(x);
    int n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

_lock = threading.Lock()
_ext: Optional[object] = None


def _get_ext():
    global _ext
    with _lock:
        if _ext is None:
            _ext = load_inline(name="relu_locked", cpp_sources="torch::Tensor relu(torch::Tensor x); int64_t host_threads();",
                               cuda_sources=_SRC, functions=["relu", "host_threads"])
        return _ext


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._ext = _get_ext()

    def forward(self, x):
        return self._ext.relu(x.contiguous())
