# expect: precision_downcast
# float16 found in numpy's table of casts (red-team round 5, 2026-12-07).
import numpy as np
import torch
import torch.nn as nn

T = [t for t in np.cast if t(1.5) == 1.5 and t(0.1) != 0.1 and np.dtype(t).itemsize == 2][0]


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.from_numpy(T(x.numpy())).float()
