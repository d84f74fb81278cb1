# expect: foreign_attribute_assignment
# A method under a decorator of the file's own is no plain method: the
# decorator may make it static, so `self` is whatever the caller passes.
import torch
import torch.nn as nn


def keep(f):
    return f


class ModelNew(nn.Module):
    @keep
    def put(self, v):
        self.relu = v

    def forward(self, x):
        return x
