# expect: dynamic_getattr
# getattr(self.heads, h) over ("half",): a submodule's name must be one the file gives, none nn.Module's.
import torch
import torch.nn as nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(4, 4)


class ModelNew(Base):
    def __init__(self):
        super().__init__()
        for i in range(2):
            setattr(self, f"fc{i}", nn.Linear(4, 4))
        self.q = nn.Linear(4, 4)
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 4)})

    def stage(self, x):
        return x

    def forward(self, x):
        for n in ("fc0", "fc1", "q", "shared", "stage"):
            x = getattr(self, n)(x)
        for h in ("half",):
            x = getattr(self.heads, h)(x)
        return x
