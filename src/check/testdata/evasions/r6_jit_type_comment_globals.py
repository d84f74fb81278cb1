# expect: introspection
import torch
import torch.nn as nn


class Sink:
    def __getitem__(self, key):
        return torch.Tensor


SINK = Sink()


def probe(x):
    # type: (SINK[torch.jit.script.__globals__]) -> torch.Tensor
    return x


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.jit.script(probe)(x)
