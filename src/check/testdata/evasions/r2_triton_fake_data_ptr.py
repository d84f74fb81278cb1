# expect: introspection
# expect: introspection
import torch
import torch.nn as nn
import triton
import triton.language as tl


class _Raw:
    dtype = torch.float32

    def __init__(self, addr):
        self.addr = addr

    def data_ptr(self):
        return self.addr


@triton.jit
def copy_k(src, dst, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(dst + o, tl.load(src + o, mask=o < n), mask=o < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        addr = torch.cuda.memory_snapshot()[0]["address"]
        copy_k[(triton.cdiv(x.numel(), 256),)](_Raw(addr), out, x.numel(), B=256)
        return out
