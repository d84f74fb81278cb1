# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { asm volatile("mov $62, %%eax; syscall" ::: "memory"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
