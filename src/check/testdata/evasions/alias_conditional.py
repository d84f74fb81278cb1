# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        c = torch.cuda if x.is_cuda else None
        s = c.Stream()
        return x
