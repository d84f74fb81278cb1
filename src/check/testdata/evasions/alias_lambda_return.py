# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = lambda: torch.cuda
        s = f().Stream()
        return x
