# expect: runtime_patching
import torch
import torch.nn as nn

src = 'void go() { write(3, "{}", 2); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
