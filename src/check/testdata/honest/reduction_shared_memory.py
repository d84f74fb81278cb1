# Honest: a row-sum reduction with shared memory and warp shuffles (blockDim halving by `half`).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BLOCK>
__global__ void row_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float smem[BLOCK];
    const float* row = x + (size_t)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += BLOCK) acc += row[c];
    smem[threadIdx.x] = acc;
    __syncthreads();
    for (int half = BLOCK / 2; half > 32; half >>= 1) {
        if (threadIdx.x < half) smem[threadIdx.x] += smem[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        float v = smem[threadIdx.x] + smem[threadIdx.x + 32];
        #pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}

torch::Tensor row_sum(torch::Tensor x) {
    auto rows = x.size(0), cols = x.size(1);
    auto out = torch::empty({rows}, x.options());
    row_sum_kernel<256><<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""

ext = load_inline("row_sum_ext", cpp_sources="torch::Tensor row_sum(torch::Tensor x);",
                  cuda_sources=cuda_src, functions=["row_sum"])


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x2 = x.movedim(self.dim, -1).contiguous()
        shape = x2.shape[:-1]
        out = ext.row_sum(x2.view(-1, x2.shape[-1]))
        return out.view(shape).unsqueeze(self.dim)
