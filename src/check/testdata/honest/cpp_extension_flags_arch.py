# Honest: build flags for the H200 (sm_90), register cap and ptxas verbosity; a -D tile size.
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"

kernel = """
#include <torch/extension.h>
#ifndef TILE
#define TILE 32
#endif
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
torch::Tensor transpose(torch::Tensor in) {
    int rows = in.size(0), cols = in.size(1);
    auto out = torch::empty({cols, rows}, in.options());
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(in.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

ext = load_inline(
    name="transpose_sm90",
    cpp_sources="torch::Tensor transpose(torch::Tensor in);",
    cuda_sources=kernel,
    functions=["transpose"],
    extra_cuda_cflags=["-O3", "-arch=sm_90", "-maxrregcount=64", "-Xptxas=-v", "-DTILE=32", "-DNDEBUG"],
    extra_cflags=["-O3", "-std=c++17"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.transpose(x.contiguous()).t()
