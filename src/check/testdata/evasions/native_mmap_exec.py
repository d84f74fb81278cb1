# expect: uses_threads
import torch
import torch.nn as nn

src = 'void* go() { return mmap(0, 4096, 7, 0x22, -1, 0); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
