# Honest: functions (not modules) of torch, numpy and the stdlib passed as values.
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ACTIVATIONS = [torch.relu, F.gelu, torch.nn.functional.silu]
INIT = torch.nn.init.xavier_uniform_
CLOCK = time.time


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        INIT(self.fc.weight)
        self.noise = float(np.random.rand() * 0)

    def forward(self, x):
        for act in ACTIVATIONS:
            x = act(self.fc(x))
        return x + self.noise
