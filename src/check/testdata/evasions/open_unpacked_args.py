# expect: introspection
import torch
import torch.nn as nn

ARGS = ('/pr' 'oc/self/maps',)


class ModelNew(nn.Module):
    def forward(self, x):
        f = open(*ARGS)
        return x
