# expect: uses_threads
import torch
import torch.nn as nn

src = '#define SPAWN fork\nvoid go() { SPAWN(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
