# expect: dynamic_code
# (a metaclass called with a namespace; the literal dunder key is private_attribute's, a backstop)
import torch
import torch.nn as nn
import abc
K = abc.ABCMeta("K", (), {"__del__": lambda s: print("late")})
_k = K()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
