# expect: dynamic_code
import torch
import torch.nn as nn
from os import environ as env

env['CC'] = '/tmp/cc'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
