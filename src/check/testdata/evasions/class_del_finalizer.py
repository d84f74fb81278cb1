# expect: private_attribute
import torch
import torch.nn as nn

class Later:
    def __del__(self):
        pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
