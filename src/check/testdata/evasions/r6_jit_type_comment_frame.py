# expect: introspection
import torch
import torch.nn as nn


def gen():
    yield 1


G = gen()


class Sink:
    def __getitem__(self, key):
        return torch.Tensor


SINK = Sink()


def probe(x):
    #type:(SINK[G.gi_frame]) -> torch.Tensor
    return x


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.jit.script(probe)(x)
