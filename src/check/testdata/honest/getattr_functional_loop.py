# Honest: activations picked from torch.nn.functional by a loop over literal
# public names, the getattr's value only called (bound once, or called in place).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        x = self.fc(x)
        for name in ("relu", "gelu"):
            fn = getattr(F, name)
            x = fn(x)
        return sum(getattr(torch, op)(x) for op in ("tanh", "sigmoid"))
