# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        c = None or torch.cuda
        s = c.Stream()
        return x
