# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        (c := torch.cuda)
        s = c.Stream()
        return x
