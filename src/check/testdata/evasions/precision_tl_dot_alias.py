# expect: precision_downcast
import torch
import torch.nn as nn
import triton
from triton.language import dot as mm
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, c_ptr):
    c = mm(tl.load(a_ptr), tl.load(b_ptr))
    tl.store(c_ptr, c)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
