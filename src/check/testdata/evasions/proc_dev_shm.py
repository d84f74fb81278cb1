# expect: introspection
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = open('/dev/shm/x', 'rb')
        return x
