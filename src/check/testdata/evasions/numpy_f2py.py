# expect: dynamic_code
import torch
import torch.nn as nn
import numpy.f2py


class ModelNew(nn.Module):
    def forward(self, x):
        return x
