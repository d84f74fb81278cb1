# expect: uses_threads
import torch
import torch.nn as nn

src = 'using std::thread;\nvoid go() { thread t([]{}); t.detach(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
