# expect: dynamic_getattr
import torch
import torch.nn as nn

name = "__globals__"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        g = lambda: getattr(self.forward, name)
        self.g = g()

        def unused():
            name = f"layer{0}"

    def forward(self, x):
        return torch.relu(x)
