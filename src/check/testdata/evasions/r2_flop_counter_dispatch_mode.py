# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
from torch.utils.flop_counter import FlopCounterMode

class Spy(FlopCounterMode):
    pass

_m = Spy(display=False)


class ModelNew(nn.Module):
    def forward(self, x):
        with _m:
            return x + 0
