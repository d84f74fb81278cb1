# expect: dynamic_code
import torch
import torch.nn as nn

src = '#define D(x) dl ## x\nvoid go() { D(open)("libx.so", 1); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
