# Honest: nested helper functions, closures and functools.partial around a Triton launch.
import functools
import operator
from functools import reduce

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_kernel(x_ptr, y_ptr, lo, hi, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(x, lo), hi), mask=m)


def make_launcher(block: int):
    def grid(n):
        return (triton.cdiv(n, block),)

    def launch(x, lo, hi):
        n = reduce(operator.mul, x.shape, 1)
        y = torch.empty_like(x)
        hardtanh_kernel[grid(n)](x, y, lo, hi, n, BLOCK=block)
        return y

    return launch


class ModelNew(nn.Module):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0):
        super().__init__()
        self.run = functools.partial(make_launcher(1024), lo=min_val, hi=max_val)

    def forward(self, x):
        return self.run(x.contiguous())
