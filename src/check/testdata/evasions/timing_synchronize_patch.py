# expect: foreign_attribute_assignment
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.cuda.synchronize = lambda *a: None
        return x
