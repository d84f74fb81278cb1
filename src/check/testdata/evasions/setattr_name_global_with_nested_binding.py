# expect: dynamic_setattr
import torch
import torch.nn as nn

name = "_modules"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

        def helper():
            name = f"layer{0}"
            return name

        setattr(self, name, {})

    def forward(self, x):
        return torch.relu(x)
