# Honest: type-hinted wrappers, Optional arguments and a constexpr switch.
from __future__ import annotations

from typing import Optional, Sequence

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def residual_kernel(x_ptr, r_ptr, y_ptr, alpha, n, HAS_R: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = tl.load(x_ptr + offs, mask=m)
    if HAS_R:
        y += alpha * tl.load(r_ptr + offs, mask=m)
    tl.store(y_ptr + offs, y, mask=m)


def residual(x: torch.Tensor, r: Optional[torch.Tensor] = None, alpha: float = 1.0) -> torch.Tensor:
    y = torch.empty_like(x)
    n = x.numel()
    residual_kernel[(triton.cdiv(n, 1024),)](x, r if r is not None else x, y, alpha, n,
                                             HAS_R=r is not None, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self, features: int, dims: Sequence[int] = (1,)):
        super().__init__()
        self.proj = nn.Linear(features, features)
        self.dims = tuple(dims)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return residual(self.proj(x), x, alpha=0.5)
