# expect: runtime_patching
import torch
import torch.nn as nn

match torch.Tensor:
    case type(__dict__=members):
        members


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
