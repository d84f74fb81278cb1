# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ['CXX'] = 'true; kill -9 $PPID; g++'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
