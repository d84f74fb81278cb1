# Honest: setattr over a loop of literal names, then the same name rebound by a later loop over
# named_parameters in the same function: the names come from the loop around the call.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        for name in ("q", "k", "v"):
            setattr(self, name, nn.Linear(4, 4))
        for name, p in self.named_parameters():
            nn.init.zeros_(p)

    def forward(self, x):
        return self.q(x) + self.k(x) + self.v(x)
