import torch
import torch.nn as nn
from typing import List, Optional


def scale_all(xs, factor, bias):
    # type: (List[torch.Tensor], float, Optional[torch.Tensor]) -> List[torch.Tensor]
    out = []
    for x in xs:
        y = x * factor
        if bias is not None:
            y = y + bias
        out.append(y)
    return out


scaled = torch.jit.script(scale_all)


class ModelNew(nn.Module):
    def forward(self, x):
        return scaled([x], 2.0, None)[0]
