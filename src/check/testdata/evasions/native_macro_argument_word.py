# expect: uses_threads
import torch
import torch.nn as nn

src = '#define CALL(f, a) f(a)\nvoid go() { CALL(system, "true"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
