# expect: dynamic_code
# A string inside an annotation (a forward reference of Optional[...]) is
# evaluated too: it must name a type.
from typing import Optional

import torch
import torch.nn as nn


def scale(x: Optional["(setattr(torch, 'relu', torch.sigmoid), torch.Tensor)[1]"]) -> torch.Tensor:
    return x


class ModelNew(nn.Module):
    def forward(self, x):
        return x
