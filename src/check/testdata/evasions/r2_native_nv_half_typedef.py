# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cuda_fp16.h>
__global__ void k(const float* x, float* y){ nv_half h = x[0]; y[0] = h; }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
