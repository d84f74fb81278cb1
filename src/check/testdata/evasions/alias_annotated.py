# expect: side_stream
import torch
import torch.nn as nn

c: object = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        s = c.Stream()
        return x
