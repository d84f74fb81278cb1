# expect: uses_threads
import torch
import torch.nn as nn

src = '#include <future>\nvoid go() { auto f = std :: async([]{ return 1; }); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
