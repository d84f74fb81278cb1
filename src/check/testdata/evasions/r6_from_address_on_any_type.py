# expect: introspection
import torch
import torch.nn as nn


def cell(kind, where):
    return kind.from_address(where)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
