# runtime_error: forward raises.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        raise ValueError("kmem test: forward failed on purpose")
