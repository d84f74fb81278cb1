# expect: dynamic_getattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        name = f"layer{0}"
        match "__globals__":
            case str() as name:
                pass
        self.g = getattr(self.forward, name)  # the module's globals dict
        self.b = self.g.get("_" * 2 + "builtins" + "_" * 2)

    def forward(self, x):
        return torch.relu(x)
