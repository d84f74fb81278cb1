# expect: dynamic_code
import torch
import torch.nn as nn

src = '#include "../../tmp/evil.h"\n'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
