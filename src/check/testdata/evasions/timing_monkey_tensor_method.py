# expect: foreign_attribute_assignment
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.Tensor.__add__ = torch.Tensor.__sub__
        return x
