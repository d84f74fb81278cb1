# expect: precision_downcast
# The switch as a context (cudnn.flags, refused whatever its arguments, like the precision flags it also sets).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def forward(self, x, w):
        with torch.backends.cudnn.flags(enabled=False):
            return F.conv2d(x, w)
