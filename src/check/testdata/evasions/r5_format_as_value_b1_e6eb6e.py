# expect: dynamic_getattr
# str.format taken as a value with a computed format string reading a dunder (red-team round 3, 2026-12-07).
import functools
import torch
import torch.nn as nn

FMT = "{0." + "_" * 2 + "globals" + "_" * 2 + "}"
FMT2 = "{f." + "_" * 2 + "globals" + "_" * 2 + "}"


def probe():
    return 0


class ModelNew(nn.Module):
    def forward(self, x):
        s = functools.partial(str.format, FMT)(probe)
        print(s[:60])
        return x
