# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        g = torch.Generator(device='cuda').manual_seed(0)
        return x
