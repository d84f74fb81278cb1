# expect: precision_downcast
# float16 found in numpy's table of type sizes by its behaviour, never named (red-team round 5, 2026-12-07).
import numpy as np
import torch
import torch.nn as nn

T = [t for t in np.nbytes if np.nbytes[t] == 2 and t(1.5) == 1.5 and t(0.1) != 0.1][0]
HALF = torch.from_numpy(np.array([T(0)])).dtype


class ModelNew(nn.Module):
    def forward(self, x):
        return x.to(HALF).float()
