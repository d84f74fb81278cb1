# expect: dynamic_setattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        name = f"layer{0}"
        match "_modules":
            case str() as name:
                pass
        setattr(self, name, {})

    def forward(self, x):
        return torch.relu(x)
