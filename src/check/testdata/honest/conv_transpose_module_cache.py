# Honest: a per-shape cache of workspace tensors in a dict attribute (subscript writes).
from collections import OrderedDict
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_scale_kernel(x_ptr, y_ptr, scale, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    t = tl.where(x < 0, -t, t)
    tl.store(y_ptr + offs, t * scale, mask=m)


class ModelNew(nn.Module):
    def __init__(self, cin, cout, k, stride=2, scale=0.5):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(cin, cout, k, stride=stride)
        self.scale = scale
        self._workspace: "OrderedDict[Tuple[int, ...], torch.Tensor]" = OrderedDict()

    def _buffer(self, like: torch.Tensor) -> torch.Tensor:
        key = tuple(like.shape)
        if key not in self._workspace:
            if len(self._workspace) > 4:
                self._workspace.popitem(last=False)
            self._workspace[key] = torch.empty_like(like)
        return self._workspace[key]

    def forward(self, x):
        y = self.deconv(x)
        out = torch.empty_like(y)
        n = y.numel()
        tanh_scale_kernel[(triton.cdiv(n, 1024),)](y, out, self.scale, n, BLOCK=1024)
        return out
