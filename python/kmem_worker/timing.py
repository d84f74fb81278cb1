"""Measuring a model the same way for the reference and the candidate: an
L2 (or last-level cache) flush before every call, a timer around the call
with a device-wide synchronise before it stops (work on any stream counts),
warm-up of a length the model cannot predict, timed calls rotating over the
input sets, and the median."""
import os
import statistics
import time

import torch

from .problem import synchronize

# Names this way of measuring; cached reference times of another method are
# not reused (facts_cache.py).
METHOD = "flush-sync-median-2"
CPU_CACHE_BYTES = 32 << 20  # used where the CPU's last-level cache size is unknown
WARMUP_S = 0.1  # warm-up lasts at least this long, flushes included (clocks ramp up from idle)
TIMED_MS = 200.0  # short calls are repeated until this much is measured...
MAX_TIMED_CALLS = 1000  # ...up to this many calls...
MAX_TIMED_S = 1.0  # ...or this long, flushes included, once the minimum is reached


class CacheFlusher:
    """Writes a buffer at least twice the size of the device's L2 (CPU: the
    last-level cache) so no call finds its data cached by the previous one."""

    def __init__(self, device):
        if device == "cuda":
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            cache = getattr(props, "L2_cache_size", 0) or (64 << 20)
        else:
            cache = CPU_CACHE_BYTES
        self._buffer = torch.empty(2 * cache // 4 + 1024, dtype=torch.float32, device=device)

    def __call__(self):
        self._buffer.fill_(1.0)


class Timer:
    def __init__(self, device):
        self._device = device

    def time_call(self, call):
        """(milliseconds, value) of call(), synchronising the whole device
        before the clock stops."""
        if self._device == "cuda":
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            value = call()
            torch.cuda.synchronize()
            end.record()
            end.synchronize()
            return start.elapsed_time(end), value
        begin = time.perf_counter()
        value = call()
        return (time.perf_counter() - begin) * 1e3, value


def random_warmup(base):
    """base to 2*base calls, drawn from os.urandom."""
    return base + int.from_bytes(os.urandom(2), "little") % (base + 1)


def measure(model, sets, warmup, iters, device):
    """Times `model` over `sets` (lists of inputs). Returns the median in ms,
    the output of the last timed call of each set (the timed calls cover every
    set), and whether two consecutive calls on different sets returned the
    same storage."""
    flush = CacheFlusher(device)
    timer = Timer(device)
    warm = random_warmup(warmup)
    iters = max(iters, len(sets))
    times, last_outputs = [], {}
    previous, same_storage = None, False
    call = 0
    started = time.perf_counter()
    timing_since = None
    with torch.no_grad():
        # Warm-up: the drawn number of calls lasting at least WARMUP_S, so
        # clocks have ramped up; then at least `iters` timed calls, and more
        # for short calls until TIMED_MS are measured (within the caps).
        while True:
            now = time.perf_counter()
            if timing_since is None and call >= warm and now - started >= WARMUP_S:
                timing_since = now
            if timing_since is not None and len(times) >= iters and (
                    sum(times) >= TIMED_MS or len(times) >= MAX_TIMED_CALLS or now - timing_since >= MAX_TIMED_S):
                break
            index = len(times) % len(sets)
            inputs = sets[index]
            flush()
            synchronize(device)
            ms, output = timer.time_call(lambda: model(*inputs))
            if previous is not None and len(sets) > 1 and shares_storage(output, previous):
                same_storage = True
            previous = output
            if timing_since is not None:
                times.append(ms)
                last_outputs[index] = output
            call += 1
    return statistics.median(times), last_outputs, same_storage


def shares_storage(a, b):
    def pointers(value):
        values = value if isinstance(value, (tuple, list)) else [value]
        return {v.data_ptr() for v in values if isinstance(v, torch.Tensor) and v.numel() > 0}
    return bool(pointers(a) & pointers(b))
