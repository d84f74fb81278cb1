# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        g = torch.Generator().manual_seed(0)
        return x
