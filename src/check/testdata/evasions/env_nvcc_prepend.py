# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ.setdefault('NVCC_PREPEND_FLAGS', '-Xcompiler -fplugin=/tmp/p.so')


class ModelNew(nn.Module):
    def forward(self, x):
        return x
