# expect: precision_downcast
import torch
import torch.nn as nn

src = 'void go(cudnnConvolutionDescriptor_t d) { cudnnSetConvolutionMathType(d, CUDNN_TENSOR_OP_MATH); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
