# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = open('/tmp/x', mode='w')
        return x
