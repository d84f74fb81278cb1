# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        f = object.__getattribute__(torch.cuda, 'Stream')
        return x
