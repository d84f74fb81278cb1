# expect: dynamic_getattr
# getattr(self, s) over a kept list self.steps = ["fc1", "half"]: half is nn.Module's, not the class's.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features=64, out_features=64):
        super().__init__()
        self.fc1 = nn.Linear(in_features, out_features)
        self.steps = ["fc1", "half"]

    def forward(self, a, b):
        y = a
        for s in self.steps:
            fn = getattr(self, s)
            if s == "half":
                fn()
            else:
                y = fn(y.to(self.fc1.weight.dtype))
        return y.to(a.dtype)
