# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(name='k', cpp_sources='int f() { RUN("true"); return 1; }', functions=['f'], extra_cflags=['-DRUN=sys' 'tem'])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
