# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        d = {'c': torch.cuda}
        s = d['c'].Stream()
        return x
