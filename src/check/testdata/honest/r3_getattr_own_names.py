# Honest: getattr over literal names the class gives itself: set by setattr with an f-string, assigned,
# inherited from a base class of the file, a method of its own; a ModuleDict key on a submodule.
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
        for h in ("a",):
            x = getattr(self.heads, h)(x)
        return x
