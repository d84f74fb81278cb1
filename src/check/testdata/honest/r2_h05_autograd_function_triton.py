# Honest: h05 autograd function triton (adversarial round 2, 2026-12-06).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, s, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=m) * s, mask=m)


def _scale(x, s):
    y = torch.empty_like(x)
    n = x.numel()
    scale_kernel[(triton.cdiv(n, 1024),)](x, y, s, n, BLOCK=1024)
    return y


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.s = s
        return _scale(x, s)

    @staticmethod
    def backward(ctx, g):
        return _scale(g, ctx.s), None


class ModelNew(nn.Module):
    def __init__(self, s: float = 2.0):
        super().__init__()
        self.s = s

    def forward(self, x):
        return Scale.apply(x.contiguous(), self.s)
