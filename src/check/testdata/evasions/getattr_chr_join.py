# expect: dynamic_getattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        s = getattr(torch.cuda, ''.join(map(chr, [83, 116, 114, 101, 97, 109])))()
        return x
