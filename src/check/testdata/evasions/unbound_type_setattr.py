# expect: runtime_patching
import torch
import torch.nn as nn
import time


class ModelNew(nn.Module):
    def forward(self, x):
        type(time).__setattr__
        return x
