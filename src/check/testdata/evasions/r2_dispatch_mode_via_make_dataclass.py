# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
import dataclasses
from torch.utils.flop_counter import FlopCounterMode


def _intercept(self, func, types, args=(), kwargs=None):
    out = func(*args, **(kwargs or {}))
    return out


Spy = dataclasses.make_dataclass("Spy", [], bases=(FlopCounterMode,), init=False, eq=False,
                                 namespace={"__torch_dispatch__": _intercept})


def _keep():
    with Spy(display=False):
        yield


_held = _keep()
next(_held)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
