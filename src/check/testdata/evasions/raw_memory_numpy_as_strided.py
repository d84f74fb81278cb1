# expect: introspection
import torch
import torch.nn as nn
import numpy as np


class ModelNew(nn.Module):
    def forward(self, x):
        a = x.numpy()
        past = np.lib.stride_tricks.as_strided(a, shape=(1 << 20,), strides=(4,))
        return torch.from_numpy(past[: a.size].reshape(a.shape).copy())
