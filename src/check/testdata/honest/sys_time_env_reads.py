# Honest: reading the environment, sys.version_info and the clock for a one-time log line.
import os
import sys
import time

import torch
import torch.nn as nn
import triton
import triton.language as tl

DEBUG = os.environ.get("KERNEL_DEBUG", "0") == "1"
PY_OK = sys.version_info >= (3, 8)
_T0 = time.perf_counter()


@triton.jit
def sub_mul_kernel(x_ptr, y_ptr, a, b, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, (tl.load(x_ptr + offs, mask=m) - a) * b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, a: float = 0.5, b: float = 2.0):
        super().__init__()
        self.a, self.b = a, b
        if DEBUG:
            print(f"ModelNew ready after {time.perf_counter() - _T0:.3f}s on {sys.platform}", file=sys.stderr)

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        sub_mul_kernel[(triton.cdiv(n, 1024),)](x, y, self.a, self.b, n, BLOCK=1024)
        return y
