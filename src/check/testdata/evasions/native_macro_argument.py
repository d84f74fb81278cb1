# expect: uses_threads
import torch
import torch.nn as nn

src = '#define CALL(f) f()\nvoid go() { CALL(fork); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
