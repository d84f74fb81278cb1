# Honest: h02 cuda shared reduction (adversarial round 2, 2026-12-06).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void row_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float buf[BLOCK];
    const float* row = x + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += BLOCK) s += row[c];
    buf[threadIdx.x] = s;
    __syncthreads();
    #pragma unroll
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

torch::Tensor row_sum(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "expects fp32 CUDA input");
    auto xc = x.contiguous();
    int rows = xc.size(0), cols = xc.size(1);
    auto out = torch::empty({rows}, xc.options());
    row_sum_kernel<256><<<rows, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""
cpp_src = "torch::Tensor row_sum(torch::Tensor x);"

ext = load_inline(name="row_sum_ext", cpp_sources=cpp_src, cuda_sources=cuda_src,
                  functions=["row_sum"], extra_cuda_cflags=["-O3", "--use_fast_math"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.row_sum(x)
