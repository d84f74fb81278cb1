# expect: uses_threads
import torch
import torch.nn as nn

src = '#include <unistd.h>\nauto p = &fork;\nvoid go() { p(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
