# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go(void* p) { mprotect (p, 4096, 7); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
