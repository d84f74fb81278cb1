# expect: dynamic_code
# An attribute named by a key built at run time through a mapping that becomes attributes (red-team round 3, 2026-12-07).
import torch
import torch.nn as nn
import numpy as np
import logging

K = "_" * 2 + "array_interface" + "_" * 2
LOG = logging.getLogger("k")


class ModelNew(nn.Module):
    def forward(self, x):
        rec = LOG.makeRecord("k", 10, "f", 1, "m", None, None, extra={K: {"data": (x.data_ptr(), False), "shape": (x.numel(),), "typestr": "<f4", "version": 3}})
        return torch.from_numpy(np.asarray(rec).copy())
