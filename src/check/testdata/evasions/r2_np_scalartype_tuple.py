# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn
import numpy as np
_T = [t for t in np.ScalarType if np.dtype(t).itemsize == 2 and np.dtype(t).kind == "f"][0]
_HALF = torch.from_numpy(np.zeros(1, dtype=_T)).dtype


class ModelNew(nn.Module):
    def forward(self, x):
        return (x.to(_HALF) @ x.to(_HALF).t()).float()
