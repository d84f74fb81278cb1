# expect: dynamic_getattr
# The list of names on self is changed after __init__ stores it (a name the getattr then reads).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.names = ["fc1"]
        self.names.append("training")

    def forward(self, x):
        for n in self.names:
            x = getattr(self, n)
        return x
