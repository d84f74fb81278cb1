# expect: uses_threads
import torch
import torch.nn as nn

src = 'auto s = R"a(")a" "//"; fork();'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
