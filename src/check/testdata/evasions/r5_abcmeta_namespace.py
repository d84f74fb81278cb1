# expect: dynamic_code
# A class made by calling a metaclass with a namespace (red-team round 5, 2026-12-07).
import abc
import torch.nn as nn

Hook = abc.ABCMeta("Hook", (), {"_" * 2 + "del" + "_" * 2: lambda self: None})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
