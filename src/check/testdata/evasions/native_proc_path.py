# expect: introspection
import torch
import torch.nn as nn

src = 'void go() { FILE* f = fopen("/proc/self/maps", "r"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
