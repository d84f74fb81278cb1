# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        s = [c.Stream() for c in [torch.cuda]]
        return x
