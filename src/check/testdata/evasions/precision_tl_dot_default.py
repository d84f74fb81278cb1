# expect: precision_downcast
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr):
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    c = tl.dot(a, b)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
