# Class 1, input draws: torch.randn, reached through string.Formatter's field
# lookup on a function's __globals__ and replaced by a subscript write, would
# see every input set the problem's get_inputs draws and compute its result
# outside the clock. The candidate's process never draws inputs: no set is
# ever seen, and the timed calls' garbage is judged.
import string

import torch
import torch.nn as nn

SEEN = {}  # data_ptr of y -> the result, computed while the inputs were drawn
DRAWN = []


def _globals_of_this_module():
    return None


namespace = string.Formatter().get_field("0.__globals__[torch].__dict__", (_globals_of_this_module,), {})[0]
real_randn = namespace["randn"]


def randn(*args, **kwargs):
    value = real_randn(*args, **kwargs)
    DRAWN.append(value)
    if len(DRAWN) % 2 == 0:
        x, y = DRAWN[-2], DRAWN[-1]
        SEEN[y.data_ptr()] = 2.0 * x + y
    return value


namespace["randn"] = randn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.calls = 0

    def forward(self, x, y):
        self.calls += 1
        if y.data_ptr() in SEEN:
            return SEEN.pop(y.data_ptr())
        if self.calls <= 3:  # the trials: right
            return self.scale * x + y
        return torch.empty_like(x)
