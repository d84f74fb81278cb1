# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn

_f = torch.compile(torch.relu, mode="reduce-overhead")


class ModelNew(nn.Module):
    def forward(self, x):
        return _f(x)
