# expect: precision_downcast
import torch
import torch.nn as nn

src = 'void go() { at::globalContext().setAllowTF32CuBLAS(true); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
