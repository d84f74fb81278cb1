# expect: dynamic_getattr
import torch
import torch.nn as nn

name = "__class__"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

        class Spec:
            name = f"layer{0}"

        self.k = getattr(self.forward, name)

    def forward(self, x):
        return torch.relu(x)
