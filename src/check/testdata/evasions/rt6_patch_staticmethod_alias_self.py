# expect: foreign_attribute_assignment
# `self.<x> = v` is allowed in a method. A method made static by an alias of
# staticmethod (not the literal `@staticmethod`) still looks like a method to
# the checker, but its `self` is whatever the caller passes: called through an
# instance, `self` is torch.Tensor and the write replaces Tensor.relu for every
# tensor in the process (the reference's too).
import torch
import torch.nn as nn

sm = staticmethod


class Helper:
    @sm
    def put(self, v):
        self.relu = v


Helper().put(torch.Tensor, torch.Tensor.sigmoid)


class ModelNew(nn.Module):
    def forward(self, x):
        return x.relu()
