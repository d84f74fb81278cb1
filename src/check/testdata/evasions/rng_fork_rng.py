# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with torch.random.fork_rng():
            x = x + 1
        return x
