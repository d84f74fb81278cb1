# Honest: submodules named in a list that __init__ stores on self from string
# literals and forward only iterates.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 32)
        self.names = ["fc1", "fc2"]

    def forward(self, x):
        for n in self.names:
            x = torch.relu(getattr(self, n)(x))
        return x
