# expect: private_attribute
import torch
import torch.nn as nn
import numpy as np


class Pointer:
    __cuda_array_interface__ = {"data": (0, False), "shape": (1,), "typestr": "<f4", "version": 3}


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.as_tensor(Pointer(), device="cuda")
