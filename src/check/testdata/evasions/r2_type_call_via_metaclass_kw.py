# expect: private_attribute
# expect: dynamic_code
import torch
import torch.nn as nn
import abc

class Meta(abc.ABCMeta):
    pass

K = Meta("K", (), dict(__reduce__=lambda s: (print, ("x",))))


class ModelNew(nn.Module):
    def forward(self, x):
        return x
