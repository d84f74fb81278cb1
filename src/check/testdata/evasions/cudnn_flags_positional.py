# expect: precision_downcast
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with torch.backends.cudnn.flags(True, False, False, True):
            x = x + 1
        return x
