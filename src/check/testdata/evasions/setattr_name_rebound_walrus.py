# expect: dynamic_setattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        name = f"fc{0}"
        if (name := "__dict__"):
            setattr(self, name, {})

    def forward(self, x):
        return x
