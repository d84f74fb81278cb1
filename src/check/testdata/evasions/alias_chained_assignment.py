# expect: module_as_value
import torch
import torch.nn as nn

class H(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = d = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        return x
