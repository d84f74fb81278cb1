# expect: runtime_patching
# open reached through functools.partial with a writing mode: its arguments
# are not where a call of open has them.
import functools

import torch
import torch.nn as nn

write = functools.partial(open, mode="w")


class ModelNew(nn.Module):
    def forward(self, x):
        with write("/tmp/kmem-out.txt") as f:
            f.write("x")
        return x * 2
