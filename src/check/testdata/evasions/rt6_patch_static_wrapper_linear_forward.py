# expect: foreign_attribute_assignment
# As patch_staticmethod_alias_self, with a decorator of the file's own that
# returns staticmethod(f): `self.forward = fake` replaces nn.Linear.forward for
# every Linear in the process (a reference built of nn.Linear included).
import torch
import torch.nn as nn


def st(f):
    return staticmethod(f)


class Helper:
    @st
    def put(self, v):
        self.forward = v


def fake(self, x):
    return x


Helper().put(nn.Linear, fake)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
