# expect: uses_threads
import torch
import torch.nn as nn

src = 'extern "C" int __libc_fork(); void go() { __libc_fork(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
