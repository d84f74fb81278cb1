"""Block sketches of outputs: a compact summary of an output that the
candidate's worker computes on the device after each timed call, and that
the reference compares with the sketch of its own output for the same
inputs (drawn again from the call's seed). The output, flattened, is cut
into at most BLOCKS blocks of equal size (the last one shorter); each
block gives [sum, sum of |x|, max |x|]. Two outputs that are close element
by element (|a - e| <= atol + rtol |e|) have close sketches, block by
block (`close`); an output computed for other inputs (a cached or replayed
one) or with blocks of it left undone does not."""
import math

import torch

BLOCKS = 1024
# Rounding of the block reductions (float32 accumulation for float32
# outputs), relative to the block's sum of |x|: far above what torch's
# cascaded sums lose over a block, far below any tolerance used.
SLACK = 1e-5


def block_size(numel):
    """The size of every block but the last of an output of `numel` elements."""
    return max(1, -(-numel // BLOCKS))


def sketch(value):
    """[blocks, 3] float64 on the value's device: per block sum, sum of |x|,
    max |x| (reductions, no copy of a floating output)."""
    x = value.detach().reshape(-1)
    if x.is_complex():
        x = torch.view_as_real(x).reshape(-1)
    if x.dtype == torch.bool:
        x = x.to(torch.int64)
    n = x.numel()
    if n == 0:
        return torch.zeros(0, 3, dtype=torch.float64, device=value.device)
    size = block_size(n)
    full = n // size
    parts = []
    if full:
        parts.append(_stats(x[:full * size].view(full, size)))
    if full * size < n:
        parts.append(_stats(x[full * size:].view(1, -1)))
    return torch.cat(parts)


def _stats(blocks):
    if blocks.is_floating_point():
        total = torch.float64 if blocks.dtype == torch.float64 else torch.float32
        sums = blocks.sum(1, dtype=total)
        l1 = torch.linalg.vector_norm(blocks, 1, dim=1, dtype=total)
        top = torch.linalg.vector_norm(blocks, math.inf, dim=1)
    else:
        absolute = blocks.abs()
        sums, l1, top = blocks.sum(1, dtype=torch.int64), absolute.sum(1, dtype=torch.int64), absolute.amax(1)
    return torch.stack([sums.double(), l1.double(), top.double()], dim=1)


def block_counts(numel):
    """Elements per block of an output of `numel` elements, float64."""
    size = block_size(numel) if numel else 1
    full = numel // size
    counts = [float(size)] * full + ([float(numel - full * size)] if full * size < numel else [])
    return torch.tensor(counts, dtype=torch.float64)


def close(expected, actual, numel, tolerance):
    """Whether the sketch `actual` ([blocks, 3]) matches `expected`, of an
    output of `numel` elements, within atol = rtol = tolerance: sums and
    sums of |x| within tolerance x (elements + sum of |expected|), maxima of
    |x| within tolerance x (1 + max |expected|), plus the rounding SLACK.
    Non-finite figures must be equal (NaN matching NaN)."""
    actual = actual.to(expected.device)
    if actual.shape != expected.shape:
        return False
    counts = block_counts(numel).to(expected.device)
    l1, top = expected[:, 1], expected[:, 2]
    bound_sum = tolerance * (counts + l1) + SLACK * l1
    bound_top = tolerance * (1 + top) + SLACK * top
    bounds = torch.stack([bound_sum, bound_sum, bound_top], dim=1)
    finite = torch.isfinite(expected) & torch.isfinite(actual)
    near = (actual - expected).abs() <= bounds
    same = (actual == expected) | (torch.isnan(actual) & torch.isnan(expected))
    return bool(torch.where(finite, near, same).all())
