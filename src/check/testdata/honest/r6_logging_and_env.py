import logging
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log = logging.getLogger(__name__)
VERBOSE = os.environ.get("KERNEL_VERBOSE", "0") == "1"

SRC = r"""
#include <torch/extension.h>
torch::Tensor square(torch::Tensor x) {
  auto in = x.contiguous();
  auto out = torch::empty_like(in);
  auto p = in.data_ptr<float>();
  auto q = out.data_ptr<float>();
  for (int64_t i = 0; i < in.numel(); ++i) q[i] = p[i] * p[i];
  return out;
}
"""
ext = load_inline(name="h12_square", cpp_sources=SRC, functions=["square"], verbose=VERBOSE)


class ModelNew(nn.Module):
    def forward(self, x):
        if VERBOSE:
            log.info("square on %s of %s", tuple(x.shape), type(x).__name__)
        return ext.square(x)
