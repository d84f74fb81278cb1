# expect: dynamic_code
import torch
import torch.nn as nn

src = '#include "/tmp/evil.h"\nvoid go() {}'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
