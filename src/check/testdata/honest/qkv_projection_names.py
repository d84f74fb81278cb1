# Honest: q/k/v projections fetched by name from a literal tuple; ModuleDict for heads.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * s, mask=m)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4):
        super().__init__()
        for name in ("q", "k", "v"):
            setattr(self, name, nn.Linear(dim, dim, bias=False))
        self.heads = heads
        self.out = nn.ModuleDict({"proj": nn.Linear(dim, dim)})

    def forward(self, x):
        q, k, v = [getattr(self, p)(x) for p in ("q", "k", "v")]
        B, L, D = q.shape
        q = q.view(B, L, self.heads, D // self.heads).transpose(1, 2).contiguous()
        n = q.numel()
        scale_kernel[(triton.cdiv(n, 1024),)](q, 1.0 / math.sqrt(D // self.heads), n, BLOCK=1024)
        k = k.view(B, L, self.heads, D // self.heads).transpose(1, 2)
        v = v.view(B, L, self.heads, D // self.heads).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, L, D)
        return self.out["proj"](y)
