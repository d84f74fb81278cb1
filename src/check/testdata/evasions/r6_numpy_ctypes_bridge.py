# expect: introspection
import numpy as np
import torch
import torch.nn as nn

ARRAY = type(np.zeros((1,) * 32).ctypes.shape)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
