# expect: module_as_value
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        if x.is_cuda:
            c = torch.cuda
        else:
            c = os
        s = c.Stream()
        return x
