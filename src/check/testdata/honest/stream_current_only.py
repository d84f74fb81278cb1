# Honest: launches on the current stream, passed explicitly to the C++ side.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
#include <cuda_runtime.h>
__global__ void axpy_kernel(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
void axpy(double a, torch::Tensor x, torch::Tensor y, int64_t stream_ptr) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int n = x.numel();
    axpy_kernel<<<(n + 255) / 256, 256, 0, stream>>>((float)a, x.data_ptr<float>(), y.data_ptr<float>(), n);
}
"""
ext = load_inline(name="axpy_stream", cpp_sources="void axpy(double a, torch::Tensor x, torch::Tensor y, int64_t stream_ptr);",
                  cuda_sources=cuda_src, functions=["axpy"])


class ModelNew(nn.Module):
    def __init__(self, a: float = 2.0):
        super().__init__()
        self.a = a

    def forward(self, x, y):
        out = y.clone()
        stream = torch.cuda.current_stream()
        ext.axpy(self.a, x.contiguous(), out, stream.cuda_stream)
        torch.cuda.synchronize()
        return out
