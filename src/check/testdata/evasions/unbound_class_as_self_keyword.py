# expect: runtime_patching
import torch
import torch.nn as nn


class Helper:
    def put(self, value):
        self.detach = value


Helper.put(self=nn.Module, value=None)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
