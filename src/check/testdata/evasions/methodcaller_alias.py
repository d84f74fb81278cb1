# expect: dynamic_getattr
import torch
import torch.nn as nn
import operator as op


class ModelNew(nn.Module):
    def forward(self, x):
        m = op.methodcaller('system', 'true')
        return x
