# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.cuda.manual_seed_all(0)
        return x
