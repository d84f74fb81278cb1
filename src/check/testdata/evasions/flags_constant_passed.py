# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

FLAGS = ['-O3']
def grow(l):
    l += ['-Wl,-init,evil']
grow(FLAGS)
ext = load_inline(name='k', cpp_sources='int f() { return 1; }', functions=['f'], extra_cflags=FLAGS)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
