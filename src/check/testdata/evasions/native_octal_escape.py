# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { system("true"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
