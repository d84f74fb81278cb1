# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
__global__ void k(const float* x, unsigned short* y){ unsigned short r; asm("cvt.rn.satfinite.e2m1x2.f32 %0, %1, %2;" : "=h"(r) : "f"(x[0]), "f"(x[1])); y[0]=r; }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
