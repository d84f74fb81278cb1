# expect: introspection
import torch
import torch.nn as nn

P = '/pr'


class ModelNew(nn.Module):
    def forward(self, x):
        t = torch.from_file(P + 'oc/self/mem', size=8)
        return x
