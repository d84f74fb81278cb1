# expect: dynamic_getattr
# expect: dynamic_getattr
import torch
import torch.nn as nn
import logging

_fmt = logging.Formatter("{f.__globals__}", style="{")


def _probe():
    pass


_rec = logging.LogRecord("x", 20, "p", 1, "m", None, None)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
