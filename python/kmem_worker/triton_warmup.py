"""A trivial Triton kernel of our own, launched while a candidate worker sets
up the device (warmup.py), so that what Triton loads once per process on a
first launch (its compiler front end, the GPU backend, the launcher machinery)
is loaded before the candidate's first call rather than during it. Compiled
once per Triton cache, like any kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _fill(out_ptr, value, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, value, mask=offsets < n)


def launch():
    """Fills a small tensor on the current CUDA device and waits for it."""
    out = torch.empty(1000, device="cuda")
    _fill[(triton.cdiv(out.numel(), 256),)](out, 1.0, out.numel(), BLOCK=256)
    torch.cuda.synchronize()
