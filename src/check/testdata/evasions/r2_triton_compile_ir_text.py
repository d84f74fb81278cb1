# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn
import triton
import triton.language as tl

_IR = "".join(map(chr, [109, 111, 100, 117, 108, 101]))
_k = triton.compile(_IR)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
