# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        *c, = [torch.cuda]
        s = c[0].Stream()
        return x
