# expect: dynamic_getattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        d = getattr(self, f"__{'dict'}__")
        return x
