# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        def mk(c=torch.cuda):
            return c.Stream()
        s = mk()
        return x
