# expect: private_attribute
# expect: dynamic_code
import torch
import torch.nn as nn
import abc
K = abc.ABCMeta("K", (), {"__del__": lambda s: print("late")})
_k = K()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
