from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


@dataclass(frozen=True)
class Tile:
    rows: int = 32
    cols: int = 32


SRC = r"""
#include <torch/extension.h>
torch::Tensor transpose_tiled(torch::Tensor x, int64_t tr, int64_t tc) {
  auto in = x.contiguous();
  const int64_t n = in.size(0), m = in.size(1);
  auto out = torch::empty({m, n}, in.options());
  const float* p = in.data_ptr<float>();
  float* q = out.data_ptr<float>();
  for (int64_t i0 = 0; i0 < n; i0 += tr)
    for (int64_t j0 = 0; j0 < m; j0 += tc)
      for (int64_t i = i0; i < std::min(n, i0 + tr); ++i)
        for (int64_t j = j0; j < std::min(m, j0 + tc); ++j) q[j * n + i] = p[i * m + j];
  return out;
}
"""
ext = load_inline(name="h07_transpose", cpp_sources=SRC, functions={"transpose_tiled": "tiled transpose"})


class ModelNew(nn.Module):
    def __init__(self, tile: Optional[Tile] = None):
        super().__init__()
        self.tile = tile or Tile()

    def forward(self, x):
        return ext.transpose_tiled(x, self.tile.rows, self.tile.cols)
