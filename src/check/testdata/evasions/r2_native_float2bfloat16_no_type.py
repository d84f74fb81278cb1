# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cuda_bf16.h>
__global__ void k(const float* x, float* y){ auto h = __float2bfloat16_rn(x[0]); y[0] = __bfloat162float(h); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
