# Honest: a CUDA source formatted through textwrap.dedent(...).format(...): the format string is
# a pure text function of a literal, as known as the literal.
import hashlib
import textwrap

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

BLOCK = 256

KERNEL = textwrap.dedent("""
    #include <torch/extension.h>
    __global__ void add_bias(const float* x, const float* b, float* y, int n, int c) {{
        int i = blockIdx.x * {block} + threadIdx.x;
        if (i < n) y[i] = x[i] + b[i % c];
    }}
    torch::Tensor add_bias_cuda(torch::Tensor x, torch::Tensor b) {{
        auto y = torch::empty_like(x);
        int n = x.numel(), c = b.numel();
        add_bias<<<(n + {block} - 1) / {block}, {block}>>>(x.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, c);
        return y;
    }}
""").format(block=BLOCK)

DECL = "torch::Tensor add_bias_cuda(torch::Tensor x, torch::Tensor b);"

_NAME = "add_bias_" + hashlib.md5(KERNEL.encode()).hexdigest()[:10]
_ext = load_inline(name=_NAME, cpp_sources=[DECL], cuda_sources=[KERNEL],
                   functions={"add_bias_cuda": "x + b broadcast over the last dim"}, verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.add_bias_cuda(x.contiguous(), self.bias)
