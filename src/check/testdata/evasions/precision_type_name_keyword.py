# expect: precision_downcast
# The type's name given to Tensor.type as dtype=.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = x.type(dtype="torch.cuda.HalfTensor")
        return torch.relu(y).float()
