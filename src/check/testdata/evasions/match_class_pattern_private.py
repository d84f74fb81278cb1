# expect: private_attribute
import torch
import torch.nn as nn


def peek(m):
    match m:
        case nn.Module(_forward_hooks=hooks):
            return hooks


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
