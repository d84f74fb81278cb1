# expect: dynamic_code
import torch
import torch.nn as nn

src = '%:define J(a, b) a %:%: b\nvoid go() { J(sys, tem)("true"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
