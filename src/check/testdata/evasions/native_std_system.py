# expect: uses_threads
import torch
import torch.nn as nn

src = '#include <cstdlib>\nvoid go() { std::system("true"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
