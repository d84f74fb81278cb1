# expect: introspection
# expect: dynamic_code
import torch
import torch.nn as nn

def _g():
    yield print("x = 1")

_c = _g().gi_code.replace(co_names=("".join(map(chr, [101, 120, 101, 99])),))
_F = type(lambda: 0)
_F(_c, {})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
