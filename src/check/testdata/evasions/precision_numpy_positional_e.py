# expect: precision_downcast
import torch
import torch.nn as nn
import numpy as np


def squeeze(x):
    return torch.from_numpy(np.asarray(x.numpy(), "e").astype(np.float32))


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
