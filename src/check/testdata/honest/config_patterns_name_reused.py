# Honest: a config-driven block whose __init__ reuses a setattr loop's variable for named_parameters,
# and a getattr over the same literal names in a generator.
import enum
import functools
import math
from dataclasses import dataclass
from typing import Literal, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Act(enum.Enum):
    RELU = "relu"
    GELU = "gelu"


@dataclass(frozen=True)
class BlockCfg:
    hidden: int = 256
    act: Act = Act.GELU
    eps: float = 1e-5
    padding_mode: Literal["zeros", "reflect"] = "zeros"


ACTIVATIONS = {
    Act.RELU: F.relu,
    Act.GELU: functools.partial(F.gelu, approximate="tanh"),
}


def _fan_in_init(w: torch.Tensor) -> None:
    fan_in, _ = nn.init._calculate_fan_in_and_fan_out(w)
    bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
    with torch.no_grad():
        w.uniform_(-bound, bound)


class ModelNew(nn.Module):
    __constants__ = ["eps"]

    def __init__(self, in_features: int, out_features: int, cfg: Optional[BlockCfg] = None):
        super().__init__()
        cfg = cfg or BlockCfg()
        self.cfg = cfg
        self.eps = cfg.eps
        for name in ("q", "k", "v"):
            setattr(self, name, nn.Linear(in_features, out_features))
        self.heads = nn.ModuleDict({"mean": nn.Linear(out_features, 1), "var": nn.Linear(out_features, 1)})
        for name, p in self.named_parameters():
            if name.endswith("weight"):
                _fan_in_init(p)
        self.register_buffer("scale", torch.tensor(1.0 / math.sqrt(out_features)))

    def _proj(self, x: "torch.Tensor") -> "Tuple[torch.Tensor, torch.Tensor, torch.Tensor]":
        return tuple(getattr(self, n)(x) for n in ("q", "k", "v"))

    @torch.no_grad()
    def stats(self, x):
        return {k: head(x) for k, head in self.heads.items()}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self._proj(x)
        attn = torch.softmax((q @ k.transpose(-1, -2)) * self.scale, dim=-1)
        out = ACTIVATIONS[self.cfg.act](attn @ v)
        if out.dtype in (torch.float16, torch.bfloat16):
            out = out.float()
        return out

    def __repr__(self):
        return f"{type(self).__name__}(eps={self.eps:.1e})"
