# expect: precision_downcast
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = x.to('torch.bfloat16')
        return x
