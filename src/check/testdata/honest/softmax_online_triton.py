# Honest: online softmax in Triton with an fp32 upcast guard and the math module for constants.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = 1.0 / math.log(2.0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(y_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype != torch.float32:
            x = x.to(torch.float32)
        rows, cols = x.shape
        y = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(cols)
        softmax_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=BLOCK, num_warps=8 if BLOCK > 2048 else 4)
        return y
