# expect: runtime_patching
import torch
import torch.nn as nn
import functools

class ModelNew(nn.Module):
    def forward(self, x):
        w = functools.wraps(torch.cuda.synchronize, updated=())
        return x
