# expect: dynamic_getattr
# getattr(self, n) over ("fc1", "half"): each name must be one the class gives itself, none nn.Module gives (self.half()).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features=64, out_features=64):
        super().__init__()
        self.fc1 = nn.Linear(in_features, out_features)
        for n in ("fc1", "half"):
            member = getattr(self, n)
            if n != "fc1":
                member()            # self.half(): every parameter of the model becomes fp16

    def forward(self, a, b):
        y = self.fc1(a.to(self.fc1.weight.dtype))
        return y.to(a.dtype)
