# Honest: h04 helper classes no hooks (adversarial round 2, 2026-12-06).
import math
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


class ShapeCache:
    """Keeps per-shape scratch buffers for the module that owns it."""

    def __init__(self):
        self._buffers = {}

    def get(self, shape, device):
        key = (tuple(shape), str(device))
        buf = self._buffers.get(key)
        if buf is None:
            buf = torch.empty(shape, device=device, dtype=torch.float32)
            self._buffers[key] = buf
        return buf

    def __len__(self):
        return len(self._buffers)


@functools.lru_cache(maxsize=None)
def tile_count(n: int, tile: int) -> int:
    return math.ceil(n / tile)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scratch = ShapeCache()
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        h = self.proj(x) * self.scale
        _ = tile_count(h.shape[-1], 128)
        return F.softmax(h, dim=-1)
