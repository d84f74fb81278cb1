# expect: introspection
import torch
import torch.nn as nn
import os

class ModelNew(nn.Module):
    def forward(self, x):
        f = open(os.path.join('/', 'proc', 'self', 'mem'))
        return x
