# Honest: tile sizes in a frozen dataclass, an Enum for the activation, typing everywhere.
import enum
from dataclasses import dataclass, field
from typing import Dict, List

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Act(enum.Enum):
    RELU = 0
    SILU = 1


@dataclass(frozen=True)
class Tiling:
    block: int = 1024
    num_warps: int = 4
    notes: List[str] = field(default_factory=list)

    def __post_init__(self):
        assert self.block & (self.block - 1) == 0, "block must be a power of two"


@triton.jit
def act_kernel(x_ptr, y_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if ACT == 0:
        y = tl.maximum(x, 0.0)
    else:
        y = x / (1.0 + tl.exp(-x))
    tl.store(y_ptr + offs, y, mask=m)


TILINGS: Dict[str, Tiling] = {"small": Tiling(256, 2), "large": Tiling(2048, 8)}


class ModelNew(nn.Module):
    def __init__(self, act: Act = Act.SILU):
        super().__init__()
        self.act = act

    def forward(self, x):
        t = TILINGS["large" if x.numel() > 1 << 20 else "small"]
        y = torch.empty_like(x)
        n = x.numel()
        act_kernel[(triton.cdiv(n, t.block),)](x, y, n, ACT=self.act.value, BLOCK=t.block, num_warps=t.num_warps)
        return y
