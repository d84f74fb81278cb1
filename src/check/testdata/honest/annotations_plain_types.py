# Honest: annotations that are types: names of classes and imports, a type alias, a TypeVar,
# unions, Literal and Optional of plain literals, and a string naming a type.
from typing import Literal, Optional, Tuple, TypeVar

import torch
import torch.nn as nn

T = TypeVar("T")
Pair = Tuple[torch.Tensor, torch.Tensor]


def first(items: list[T]) -> T:
    return items[0]


def split(x: "torch.Tensor", mode: Literal["rows", "cols"] = "rows") -> Pair:
    return (x, x) if mode == "rows" else (x.t(), x.t())


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor, bias: Optional[torch.Tensor] = None) -> torch.Tensor | None:
        a, b = split(x)
        return first([a + b])
