# Honest: numpy and torch types given by name, by an array's own dtype, by a helper's parameter whose calls
# pass named types, by a loop over fp32 codes; torch's view() with shapes.
import numpy as np
import torch
import torch.nn as nn


def as_type(x, d=np.float32):
    return x.astype(d)


class ModelNew(nn.Module):
    def forward(self, a):
        host = np.zeros(3, dtype=np.float32).astype(np.float64)
        ones = np.ones(3)
        same = ones.astype(ones.dtype).view(np.float32)
        both = as_type(ones) + as_type(ones, np.float64)
        for code in ("f4", "f8"):
            both = both + ones.astype(code)[:3].sum()
        n = a.numel()
        flat = a.contiguous().view(n).view(a.shape).type(torch.float32)
        return flat + float(host.sum() + same.sum() + both.sum()) * 0 + float(np.zeros(2, dtype=float).sum())
