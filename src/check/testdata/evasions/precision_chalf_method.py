# expect: precision_downcast
import torch
import torch.nn as nn


def squeeze(x):
    return x.chalf().real.float()


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
