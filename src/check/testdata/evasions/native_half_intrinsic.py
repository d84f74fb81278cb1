# expect: precision_downcast
import torch
import torch.nn as nn

src = '__global__ void k(float* p) { p[0] = __half2float(__float2half(p[0])); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
