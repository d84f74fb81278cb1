# expect: dynamic_code
import torch
import torch.nn as nn

src = '#define CAT(a,b) a##b\nvoid go() { CAT(sys,tem)("true"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
