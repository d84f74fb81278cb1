# expect: precision_downcast
import torch
import torch.nn as nn


def squeeze(x):
    return torch.view_as_real(x.to(torch.chalf).to(torch.cfloat))[..., 0]


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
