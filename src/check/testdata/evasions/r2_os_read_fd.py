# expect: introspection
# expect: introspection
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        data = os.read(3, 4096)
        return x
