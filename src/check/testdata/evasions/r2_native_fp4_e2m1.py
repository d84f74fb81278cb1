# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cuda_fp4.h>
__global__ void k(const float* x, float* y){ __nv_fp4_e2m1 h(x[0]); y[0] = float(h); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
