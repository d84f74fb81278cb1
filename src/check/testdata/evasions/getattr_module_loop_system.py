# expect: dynamic_getattr
# A loop over literal names reaching os.system through getattr on the module.
import os

import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for name in ("system",):
            getattr(os, name)("nvidia-smi -lgc 300")
        return x
