# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        a, b = torch.cuda, 1
        s = a.Stream()
        return x
