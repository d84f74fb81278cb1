# Honest: a per-user extensions folder, the architecture list and job count set through the environment;
# load_inline's build_directory=None leaves the build folder to the evaluator, as an absent one does.
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"
os.environ["MAX_JOBS"] = "4"
os.environ.update({"CUDA_DEVICE_MAX_CONNECTIONS": "1"})
BUILD_DIR = os.path.join(os.path.expanduser("~"), ".cache", "honest_kernels", "hardswish")
os.makedirs(BUILD_DIR, exist_ok=True)
os.environ["TORCH_EXTENSIONS_DIR"] = BUILD_DIR

SRC = """
#include <torch/extension.h>
__global__ void hardswish_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f; }
}
torch::Tensor hardswish(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    hardswish_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="hardswish_ext", cpp_sources="torch::Tensor hardswish(torch::Tensor x);",
                  cuda_sources=SRC, functions=["hardswish"], build_directory=None,
                  extra_include_paths=["/usr/local/cuda/include"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.hardswish(x.contiguous())
