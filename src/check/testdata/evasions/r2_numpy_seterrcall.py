# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
import numpy as np
np.seterrcall(print)
np.seterr(all="call")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
