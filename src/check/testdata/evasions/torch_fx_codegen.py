# expect: dynamic_code
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        g = torch.fx.Graph()
        return x
