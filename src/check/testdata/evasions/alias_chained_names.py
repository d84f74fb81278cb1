# expect: side_stream
import torch
import torch.nn as nn

c = d = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        s = c.Stream()
        return x
