# expect: uses_threads
import torch
import torch.nn as nn

src = '#include <csignal>\nvoid go() { raise(SIGKILL); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
