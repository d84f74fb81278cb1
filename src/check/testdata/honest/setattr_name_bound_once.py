# Honest: layers set and read by a name bound once to an f-string of a public name.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width=64, depth=3):
        super().__init__()
        self.depth = depth
        for i in range(depth):
            name = f"layer{i}"
            setattr(self, name, nn.Linear(width, width))

    def forward(self, x):
        for i in range(self.depth):
            layer_name = f"layer{i}"
            x = torch.relu(getattr(self, layer_name)(x))
        return x
