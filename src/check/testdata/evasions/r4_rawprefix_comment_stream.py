# expect: side_stream
# Fourth adversarial round (the native source read other than the compiler reads it): rawprefix comment stream.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


cuda_src = r"""#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#define KM_LAYOUT XUR"(" )"/*"
static cudaStream_t km_side() { static cudaStream_t s = nullptr; if (!s) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); return s; }
// */

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    int n = xc.numel();
    int threads = 256, blocks = (n + threads - 1) / threads;

    relu_kernel<<<blocks, threads, 0, km_side()>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);

    return y;
}
"""

cpp_src = r"""torch::Tensor relu_cuda(torch::Tensor x);"""

ext = load_inline(
    name="a03_rawprefix_comment_stream",
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
