# expect: introspection
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        p = os.listdir(os.sep + 'proc')
        return x
