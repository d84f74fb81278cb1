# Honest: functools.cache of launch configs keyed by shape, itertools.accumulate offsets, a context manager of one's own.
import functools
import itertools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    seg = tl.program_id(0)
    start = tl.load(offsets_ptr + seg)
    end = tl.load(offsets_ptr + seg + 1)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(start, end, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + idx, mask=idx < end, other=0.0)
    tl.store(out_ptr + seg, tl.sum(acc, axis=0))


@functools.cache
def launch_config(n: int):
    block = min(1024, triton.next_power_of_2(max(n, 1)))
    return block, 4 if block <= 512 else 8


class Timed:
    """Counts the calls it wraps; lets exceptions through."""

    def __init__(self):
        self.calls = 0

    def __enter__(self):
        self.calls += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        return False


class ModelNew(nn.Module):
    def __init__(self, sizes=(3, 5, 8)):
        super().__init__()
        self.register_buffer("offsets", torch.tensor([0, *itertools.accumulate(sizes)], dtype=torch.int32))
        self.guard = Timed()

    def forward(self, x):
        segs = self.offsets.numel() - 1
        out = torch.empty(segs, device=x.device, dtype=torch.float32)
        block, warps = launch_config(int(x.numel() // max(segs, 1)))
        with self.guard:
            segment_sum_kernel[(segs,)](x.contiguous(), self.offsets.to(x.device), out, BLOCK=block, num_warps=warps)
        return out
