# Honest: h03 dataclass enum dispatch (adversarial round 2, 2026-12-06).
import enum
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Act(enum.Enum):
    RELU = "relu"
    GELU = "gelu"
    NONE = "none"


@dataclass(frozen=True)
class KernelConfig:
    block: int = 1024
    num_warps: int = 4
    activations: List[str] = field(default_factory=lambda: ["relu", "gelu"])


@triton.jit
def act_kernel(x_ptr, y_ptr, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    if MODE == 1:
        v = tl.maximum(v, 0.0)
    elif MODE == 2:
        v = 0.5 * v * (1.0 + tl.erf(v * 0.7071067811865476))
    tl.store(y_ptr + offs, v, mask=m)


_MODE = {Act.NONE: 0, Act.RELU: 1, Act.GELU: 2}


class ModelNew(nn.Module):
    def __init__(self, act: str = "gelu", cfg: KernelConfig = KernelConfig()):
        super().__init__()
        self.act = Act(act)
        self.cfg = cfg

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        match self.act:
            case Act.RELU | Act.GELU:
                mode = _MODE[self.act]
            case _:
                mode = 0
        act_kernel[(triton.cdiv(n, self.cfg.block),)](x, y, n, MODE=mode, BLOCK=self.cfg.block,
                                                      num_warps=self.cfg.num_warps)
        return y
