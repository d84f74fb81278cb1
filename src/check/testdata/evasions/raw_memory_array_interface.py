# expect: introspection
import torch
import torch.nn as nn
import numpy as np


class Pointer:
    def __init__(self, address, n):
        self.__array_interface__ = {"data": (address, False), "shape": (n,), "typestr": "<f4", "version": 3}


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.from_numpy(np.asarray(Pointer(x.data_ptr(), x.numel())).copy())
