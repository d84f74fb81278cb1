# expect: side_stream
import torch
import torch.nn as nn
from torch.cuda import Stream as _S


class ModelNew(nn.Module):
    def forward(self, x):
        s = _S()
        return x
