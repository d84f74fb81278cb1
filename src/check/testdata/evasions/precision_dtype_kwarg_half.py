# expect: precision_downcast
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(4, dtype=torch.bfloat16)
        return x
