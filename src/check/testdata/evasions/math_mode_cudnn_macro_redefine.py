# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cudnn.h>

#undef CUDNN_DEFAULT_MATH
#define CUDNN_DEFAULT_MATH ((decltype(CUDNN_FMA_MATH))2)
torch::Tensor go(torch::Tensor x) {
    cudnnConvolutionDescriptor_t d;
    cudnnCreateConvolutionDescriptor(&d);
    cudnnSetConvolutionMathType(d, CUDNN_DEFAULT_MATH);
    return x;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"], extra_ldflags=["-lcudnn"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
