# expect: module_as_value
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        match torch.cuda:
            case c:
                s = c.Stream()
        return x
