# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn

src = r'''
#include <cuda_runtime.h>
__global__ void k(){}
void go(){ cudaStream_t s = reinterpret_cast<cudaStream_t>(0x2); k<<<1,1,0,s>>>(); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
