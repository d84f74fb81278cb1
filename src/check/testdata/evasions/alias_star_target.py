# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        a, *b = torch.cuda, torch.cuda
        s = b[0].Stream()
        return x
