# expect: private_attribute
import torch
import torch.nn as nn

class D:
    def __set_name__(self, owner, name):
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
