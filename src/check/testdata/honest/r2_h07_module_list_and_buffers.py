# Honest: h07 module list and buffers (adversarial round 2, 2026-12-06).
from collections import OrderedDict
import itertools

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dims=(64, 128, 64)):
        super().__init__()
        layers = OrderedDict()
        for i, (a, b) in enumerate(itertools.pairwise(dims)):
            layers[f"fc{i}"] = nn.Linear(a, b)
            layers[f"act{i}"] = nn.ReLU()
        self.body = nn.Sequential(layers)
        self.register_buffer("running_scale", torch.ones(dims[-1]))
        self.n_layers = len(dims) - 1

    def forward(self, x):
        for i in range(self.n_layers):
            x = getattr(self.body, f"fc{i}")(x)
            x = getattr(self.body, f"act{i}")(x)
        return x * self.running_scale
