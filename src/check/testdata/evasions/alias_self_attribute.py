# expect: module_as_value
import torch
import torch.nn as nn

class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = torch.cuda
    def go(self):
        return self.c.Stream()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
