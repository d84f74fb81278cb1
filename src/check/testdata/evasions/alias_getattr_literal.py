# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        g = getattr(torch, 'cuda')
        s = g.Stream()
        return x
