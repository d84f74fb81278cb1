# expect: runtime_patching
import torch
import torch.nn as nn


class Helper:
    def put(self, value):
        self.detach = value


put = Helper.put
put(torch.Tensor, lambda t: t)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
