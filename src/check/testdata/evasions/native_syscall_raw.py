# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { syscall(57); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
