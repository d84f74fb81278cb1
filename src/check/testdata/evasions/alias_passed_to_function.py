# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        def go(m):
            return m.Stream()
        s = go(torch.cuda)
        return x
