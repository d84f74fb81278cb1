# expect: introspection
import torch
import torch.nn as nn
import numpy as np


class ModelNew(nn.Module):
    def forward(self, x):
        lib = np.ctypeslib.ctypes.CDLL(None)
        return x
