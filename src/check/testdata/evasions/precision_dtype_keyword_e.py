# expect: precision_downcast
import torch
import torch.nn as nn
import numpy as np


def squeeze(x):
    return np.array(x.numpy(), dtype="e")


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
