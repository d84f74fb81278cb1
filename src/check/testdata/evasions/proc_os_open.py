# expect: introspection
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        fd = os.open('/pr' 'oc/self/mem', os.O_RDONLY)
        return x
