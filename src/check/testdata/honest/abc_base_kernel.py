# Honest: an abstract launcher base class, a classmethod factory and a property.
import abc
from typing import ClassVar

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, y_ptr, slope, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(x > 0, x, x * slope), mask=m)


class Launcher(abc.ABC):
    BLOCK: ClassVar[int] = 1024

    @abc.abstractmethod
    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        ...

    @property
    def block(self) -> int:
        return self.BLOCK

    @classmethod
    def create(cls, *args):
        return cls(*args)


class Leaky(Launcher):
    def __init__(self, slope: float):
        self.slope = slope

    def __call__(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        leaky_kernel[(triton.cdiv(n, self.block),)](x, y, self.slope, n, BLOCK=self.block)
        return y

    def __repr__(self):
        return f"Leaky(slope={self.slope})"


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.act = Leaky.create(negative_slope)

    def forward(self, x):
        return self.act(x.contiguous())
