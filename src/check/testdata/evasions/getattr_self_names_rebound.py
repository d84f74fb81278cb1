# expect: dynamic_getattr
# The list of names on self rebound by a second assignment built at run time.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, extra):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.names = ["fc1"]
        self.names = self.names + [extra]

    def forward(self, x):
        for n in self.names:
            x = getattr(self, n)(x)
        return x
