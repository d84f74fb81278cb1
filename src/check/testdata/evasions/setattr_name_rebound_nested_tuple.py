# expect: dynamic_setattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        name = f"fc{0}"
        for _, (name, _) in enumerate([("__class__", 1)]):
            pass
        setattr(self, name, nn.Module)

    def forward(self, x):
        return x
