# expect: foreign_attribute_assignment
# Same hole as patch_staticmethod_alias_self, with functools.partial as the
# decorator: a partial object does not bind as a method, so called through an
# instance its `self` is the first argument given. Here the timer's class
# torch.cuda.Event gets a forged elapsed_time, and Tensor.relu is replaced.
import functools
import torch
import torch.nn as nn


class Helper:
    @functools.partial(functools.partial)
    def put(self, v):
        self.elapsed_time = v

    @functools.partial(functools.partial)
    def put_relu(self, v):
        self.relu = v


def fake_elapsed(self, end):
    return 0.001


Helper().put(torch.cuda.Event, fake_elapsed)
Helper().put_relu(torch.Tensor, torch.Tensor.sigmoid)


class ModelNew(nn.Module):
    def forward(self, x):
        return x.relu()
