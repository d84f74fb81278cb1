# expect: precision_downcast
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def k(p):
    v = tl.load(p).to(tl.float16)
    tl.store(p, v)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
