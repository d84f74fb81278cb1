# expect: introspection
# expect: dynamic_code
import torch
import torch.nn as nn

def _g():
    yield 1

_F = type(lambda: 0)
_f = _F(_g().gi_code, {"print": print})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
