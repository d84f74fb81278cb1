# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { ::kill(getppid(), 9); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
