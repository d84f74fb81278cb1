# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn

src = r'''
#include <ATen/cuda/CUDAContext.h>
__global__ void k(float* p){}
void go(float* p){ cudaStream_t s; cudaStreamGetPriority(0, 0); k<<<1, 1, 0, (cudaStream_t)2>>>(p); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
