# expect: introspection
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = open('/%s/self/maps' % 'proc')
        return x
