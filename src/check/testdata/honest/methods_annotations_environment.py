# Honest idioms near the rules on methods used as plain functions, string
# annotations, the environment and reduced-precision names.
import os
from typing import Optional

import torch
import torch.nn as nn

DEBUG = os.environ.get("KMEM_EXAMPLE_DEBUG", "") == "1"
THREADS = int(os.environ["OMP_NUM_THREADS"]) if "OMP_NUM_THREADS" in os.environ else 1


class Scale(nn.Module):
    def __init__(self, factor: "float") -> None:
        super().__init__()
        self._factor = factor

    def get_factor(self) -> float:
        return self._factor

    def set_factor(self, value: float) -> None:
        self._factor = value

    factor = property(get_factor, set_factor)

    def apply(self, x: "torch.Tensor") -> "torch.Tensor":
        return x * self._factor

    __call__ = apply


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scale = Scale(2.0)

    def forward(self, x: torch.Tensor, bias: "Optional[torch.Tensor]" = None) -> "torch.Tensor":
        if x.dtype == torch.float16:
            raise TypeError("fp32 expected")
        y = self.scale(x)
        return y if bias is None else y + bias
