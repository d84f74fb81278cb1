# expect: introspection
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = open(''.join(map(chr, [47, 112, 114, 111, 99])) + '/self/maps')
        return x
