# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ.update({'LD_PRELOAD': '/tmp/x.so'})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
