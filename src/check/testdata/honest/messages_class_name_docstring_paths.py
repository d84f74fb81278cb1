# Honest: a message naming the module's own class, and a docstring that
# mentions device paths it never opens.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Adds one; like writing to /dev/null, nothing of /proc or /sys is read."""

    def forward(self, x):
        if x.dim() == 0:
            raise ValueError(f"{self.__class__.__name__} expects a tensor with dimensions")
        return x + 1

    def __repr__(self):
        return f"{self.__class__.__name__}()"
