# expect: dynamic_code
import numpy
import torch
import torch.nn as nn

YES = 1 > 0
reader = numpy.lib.npyio.load


class ModelNew(nn.Module):
    def forward(self, x):
        reader("t.npy", allow_pickle=YES)
        return torch.relu(x)
