# Honest: a custom autograd.Function around a Triton kernel, with ctx state.
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, y_ptr, scale, shift, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * scale + shift, mask=mask)


def _launch(x: torch.Tensor, scale: float, shift: float) -> torch.Tensor:
    y = torch.empty_like(x)
    n = x.numel()
    scale_shift_kernel[(triton.cdiv(n, 1024),)](x, y, scale, shift, n, BLOCK=1024)
    return y


class ScaleShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, scale: float, shift: float) -> torch.Tensor:
        ctx.scale = scale
        ctx._shape = x.shape
        ctx.mark_non_differentiable()
        ctx.save_for_backward(x)
        return _launch(x.contiguous(), scale, shift)

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> Tuple[torch.Tensor, None, None]:
        (x,) = ctx.saved_tensors
        grad_x = None
        if ctx.needs_input_grad[0]:
            grad_x = _launch(grad.contiguous(), ctx.scale, 0.0)
        return grad_x, None, None


class ModelNew(nn.Module):
    def __init__(self, scale: float = 2.0, shift: float = 0.5):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        return ScaleShift.apply(x, self.scale, self.shift)
