# expect: dynamic_getattr
import torch
import torch.nn as nn


def gen():
    yield 1


class ModelNew(nn.Module):
    def forward(self, x):
        g = gen()
        seen = "{0.gi_frame.f_back}".format(g)
        return x
