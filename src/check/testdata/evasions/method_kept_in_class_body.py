# expect: runtime_patching
import torch
import torch.nn as nn


class Helper:
    def put(self, v):
        self.detach = v

    kept = [put]


Helper.kept[0](torch.Tensor, None)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
