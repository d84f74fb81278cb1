# Class 1, input draws: torch.randn replaced through an unbound method called
# with the torch module as `self` (`put(torch, f)`), recording every set drawn
# and its result. The candidate's process never draws inputs.
import torch
import torch.nn as nn

SEEN = {}
DRAWN = []
real_randn = torch.randn


class Holder:
    def put(self, value):
        self.randn = value


def randn(*args, **kwargs):
    value = real_randn(*args, **kwargs)
    DRAWN.append(value)
    if len(DRAWN) % 2 == 0:
        SEEN[DRAWN[-1].data_ptr()] = 2.0 * DRAWN[-2] + DRAWN[-1]
    return value


Holder.put(torch, randn)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.calls = 0

    def forward(self, x, y):
        self.calls += 1
        if y.data_ptr() in SEEN:
            return SEEN.pop(y.data_ptr())
        if self.calls <= 3:
            return self.scale * x + y
        return torch.empty_like(x)
