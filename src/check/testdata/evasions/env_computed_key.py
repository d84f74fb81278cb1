# expect: dynamic_code
import torch
import torch.nn as nn
import os

KEY = 'PA' + 'TH'
os.environ[KEY] = '/tmp'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
