# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cutlass/numeric_types.h>
__global__ void k(const float* x, float* y){ cutlass::tfloat32_t t(x[0]); y[0] = float(t); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
