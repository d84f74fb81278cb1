# expect: runtime_patching
import torch
import torch.nn as nn

src = 'void go() { FILE* f = fopen("/root/.cache/kmem/times.json", "w"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
