# expect: private_attribute
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        g = torch._C.default_generator
        return x
