# expect: dynamic_code
import torch
import torch.nn as nn

src = 'asm(".byte 0x0f, 0x05");'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
