# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { char* a[] = {0}; execvp("sh", a); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
