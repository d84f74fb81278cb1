# expect: foreign_attribute_assignment
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        setattr(torch.backends.cudnn, 'allow_tf32', True)
        return x
