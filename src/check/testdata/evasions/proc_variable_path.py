# expect: introspection
import torch
import torch.nn as nn

BASE = '/pr'
TAIL = 'oc/self/maps'


class ModelNew(nn.Module):
    def forward(self, x):
        f = open(BASE + TAIL)
        return x
