# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn
import numpy as np
_HALF = torch.from_numpy(np.zeros(1, dtype=np.min_scalar_type(1.0))).dtype


class ModelNew(nn.Module):
    def forward(self, x):
        w = x.to(_HALF)
        return (w @ w.t()).float()
