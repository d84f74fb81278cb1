# expect: dynamic_code
# Fourth adversarial round (the native source read other than the compiler reads it): lone cr hides define paste half.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


cuda_src = """#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
static int km_one = 1;\r#define KM_CAT(a, b) a ## b
__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { KM_CAT(__ha, lf) h = KM_CAT(__float2ha, lf_rn)(x[i]); y[i] = KM_CAT(__ha, lf2float)(KM_CAT(__hm, ax)(h, KM_CAT(__float2ha, lf_rn)(0.f))); }
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    int n = xc.numel();
    int threads = 256, blocks = (n + threads - 1) / threads;

    relu_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);

    return y;
}
"""

cpp_src = """torch::Tensor relu_cuda(torch::Tensor x);"""

ext = load_inline(
    name="a61_lone_cr_hides_define_paste_half",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["relu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-arch=sm_90"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_cuda(x)
