# expect: uses_threads
import torch
import torch.nn as nn

src = '#include <thread>\nvoid go() { std::jthread t([]{}); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
