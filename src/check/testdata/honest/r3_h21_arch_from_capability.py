import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_code = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void sum_reduce_kernel(const float* input, float* output, int rows, int cols) {
    extern __shared__ float sdata[];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int c = tid; c < cols; c += blockDim.x) acc += input[row * cols + c];
    sdata[tid] = acc;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (tid < half) sdata[tid] += sdata[tid + half];
        __syncthreads();
    }
    if (tid == 0) output[row] = sdata[0];
}

torch::Tensor sum_reduce(torch::Tensor input, int64_t dim) {
    TORCH_CHECK(dim == 1, "only dim=1 supported");
    auto x = input.contiguous();
    int rows = x.size(0), cols = x.size(1);
    auto out = torch::empty({rows, 1}, x.options());
    int threads = 512;
    sum_reduce_kernel<<<rows, threads, threads * sizeof(float)>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

cpp_code = "torch::Tensor sum_reduce(torch::Tensor input, int64_t dim);"

major, minor = torch.cuda.get_device_capability()
reduce_ext = load_inline(
    name="sum_reduce_ext",
    cpp_sources=cpp_code,
    cuda_sources=cuda_code,
    functions=["sum_reduce"],
    extra_cuda_cflags=["-O3", "--use_fast_math", f"-arch=sm_{major}{minor}"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return reduce_ext.sum_reduce(x, self.dim)
