# expect: runtime_patching
import torch
import torch.nn as nn


class Helper:
    def put(self, v):
        self.detach = v

    put(torch.Tensor, None)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
