# expect: uses_threads
# Fourth adversarial round (the native source read other than the compiler reads it): macro ns at launch.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


cuda_src = r"""#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <ATen/Parallel.h>
#define KM_AT at
static void km_bg() { KM_AT::launch([] { volatile long k = 0; for (long i = 0; i < (1L << 34); ++i) ++k; }); }

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    int n = xc.numel();
    int threads = 256, blocks = (n + threads - 1) / threads;
    km_bg();

    relu_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);

    return y;
}
"""

cpp_src = r"""torch::Tensor relu_cuda(torch::Tensor x);"""

ext = load_inline(
    name="a13_macro_ns_at_launch",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["relu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_cuda(x)
