# expect: dynamic_code
import torch
import torch.nn as nn

src = '#define H "/tmp/evil.h"\n#include H\n'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
