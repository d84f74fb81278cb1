# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { pid_t p; posix_spawn(&p, "/bin/true", 0, 0, 0, 0); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
