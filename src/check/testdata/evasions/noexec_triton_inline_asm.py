# expect: dynamic_code
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def k(p):
    v = tl.inline_asm_elementwise('mov.b32 $0, $1;', '=r,r', [tl.load(p)], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(p, v)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
