# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(name='k', cpp_sources='int f();', cuda_sources='int f() { return 1; }', functions=['f'], extra_cuda_cflags=['-include', '/tmp/evil.h'])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
