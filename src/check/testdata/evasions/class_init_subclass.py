# expect: private_attribute
import torch
import torch.nn as nn

class B:
    def __init_subclass__(cls, **kw):
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
