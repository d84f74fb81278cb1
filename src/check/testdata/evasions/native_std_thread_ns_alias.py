# expect: uses_threads
import torch
import torch.nn as nn

src = 'namespace s = std;\nvoid go() { s::thread t([]{}); t.detach(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
