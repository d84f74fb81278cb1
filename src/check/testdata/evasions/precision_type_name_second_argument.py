# expect: precision_downcast
# Tensor.type called through the class: the type's name is its second
# argument, not the first that x.type("torch.cuda.HalfTensor") gives it.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.Tensor.type(x, "torch.cuda.HalfTensor")
        return torch.relu(y).float()
