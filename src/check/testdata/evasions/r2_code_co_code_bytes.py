# expect: introspection
# expect: dynamic_code
import torch
import torch.nn as nn

def _g():
    yield 1

_code = _g().gi_code
_new = _code.replace(co_code=bytes([151, 0, 100, 1, 83, 0]), co_consts=(None, 7))


class ModelNew(nn.Module):
    def forward(self, x):
        return x
