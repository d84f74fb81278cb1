# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        s = torch.initial_seed()
        return x
