"""Measuring a model the same way for the reference and the candidate: an
L2 (or last-level cache) flush before every call, a timer around the call
with a device-wide synchronise before it stops (work on any stream counts),
warm-up of a length the model cannot predict, timed calls rotating over the
input sets, and the median. A model bound by the host (its calls spend most
of their time launching work, or it runs on the CPU) is timed in windows
with a probe of the host's speed between them, and only the windows run at
the host's usual speed count, if enough of them come within the time
allowed (host_speed.py); on a GPU, one that finds the host slow comes back
for another turn at the timing lock later (measure_in_turns)."""
import collections
import os
import statistics
import time

import torch

from .problem import synchronize

# Names this way of measuring; cached reference times of another method are
# not reused (facts_cache.py).
METHOD = "flush-sync-median-steady-3"
CPU_CACHE_BYTES = 32 << 20  # used where the CPU's last-level cache size is unknown
WARMUP_S = 0.1  # warm-up lasts at least this long, flushes included (clocks ramp up from idle)
TIMED_MS = 200.0  # short calls are repeated until this much is measured...
MAX_TIMED_CALLS = 1000  # ...up to this many calls...
MAX_TIMED_S = 1.0  # ...or this long, flushes included, once the minimum is reached
HOST_BOUND_SHARE = 0.5  # warm-up calls spending this share of their time launching: host-bound
WINDOW_S = 0.02  # a host-bound model's timed calls between two probes of the host's speed (wall time)
# A host-bound model on a GPU that finds the host slow gives the timing lock
# back and comes again later, TURNS turns at most, TURN_PAUSE_S apart (slow
# spells last seconds); a turn gives up once its first PATIENT_WINDOWS
# windows are all slow, or at MAX_TIMED_S without enough steady calls.
TURNS = 3
TURN_PAUSE_S = 1.0
PATIENT_WINDOWS = 5


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
        """(milliseconds, milliseconds until call() returned, value) of
        call(), synchronising the whole device before the clock stops."""
        if self._device == "cuda":
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            begin = time.perf_counter()
            value = call()
            returned_ms = (time.perf_counter() - begin) * 1e3
            torch.cuda.synchronize()
            end.record()
            end.synchronize()
            return start.elapsed_time(end), returned_ms, value
        begin = time.perf_counter()
        value = call()
        ms = (time.perf_counter() - begin) * 1e3
        return ms, ms, value


class Calls:
    """Calls a model on input sets, each call after a cache flush and timed;
    notes whether two consecutive calls returned the same storage."""

    def __init__(self, model, sets, device):
        self._model, self._sets, self._device = model, sets, device
        self._flush, self._timer = CacheFlusher(device), Timer(device)
        self._previous = None
        self.same_storage = False

    def call(self, index):
        """(ms, ms until the call returned, output) of a call on set `index`."""
        inputs = self._sets[index]
        self._flush()
        synchronize(self._device)
        ms, returned_ms, output = self._timer.time_call(lambda: self._model(*inputs))
        if self._previous is not None and len(self._sets) > 1 and shares_storage(output, self._previous):
            self.same_storage = True
        self._previous = output
        return ms, returned_ms, output


def random_warmup(base):
    """base to 2*base calls, drawn from os.urandom."""
    return base + int.from_bytes(os.urandom(2), "little") % (base + 1)


# ms: the median; outputs: set index -> output of its last timed call;
# same_storage: two consecutive calls returned the same storage; host_bound:
# timed in windows between probes of the host's speed; steady: the median
# comes from windows at the host's usual speed only (always when not host-bound).
Measurement = collections.namedtuple("Measurement", "ms outputs same_storage host_bound steady")


def measure_in_turns(channel, clock, model, sets, warmup, iters, device, host, turns=None):
    """measure() while holding the timing lock (channel: Channel), laps of
    `clock` (a Stopwatch) charged to timing_wait, timing and timing_pause, in up to
    `turns` turns at it (default: TURNS on a GPU; on the CPU, where every
    model is host-bound and only the tests run, one). Every turn but the
    last is patient: a host-bound model that finds the host slow gives up,
    and the lock goes to others until the next turn. The last turn measures
    whatever the host's speed (then not steady)."""
    if turns is None:
        turns = TURNS if device == "cuda" else 1
    for turn in range(1, turns + 1):
        host.learn(channel.acquire_timing_lock())
        clock.lap("timing_wait")
        try:
            measured = measure(model, sets, warmup, iters, device, host, patient=turn < turns)
        finally:
            channel.release_timing_lock()
        clock.lap("timing")
        if measured is not None:
            return measured
        time.sleep(TURN_PAUSE_S)
        clock.lap("timing_pause")


def measure(model, sets, warmup, iters, device, host, patient=False):
    """Times `model` over `sets` (lists of inputs), `host` being this
    process's HostSpeed. The timed calls cover every set. A patient
    measurement of a host-bound model returns None instead of an unsteady
    time."""
    calls = Calls(model, sets, device)
    iters = max(iters, len(sets))
    warm = random_warmup(warmup)
    with torch.no_grad():
        # Warm-up: the drawn number of calls lasting at least WARMUP_S, so
        # clocks have ramped up; it tells whether the model is host-bound.
        started, shares = time.perf_counter(), []
        while len(shares) < warm or time.perf_counter() - started < WARMUP_S:
            ms, returned_ms, _ = calls.call(0)
            shares.append(returned_ms / ms if ms > 0 else 1.0)
        host_bound = device != "cuda" or statistics.median(shares) >= HOST_BOUND_SHARE
        # Timed calls, in windows (one call each unless host-bound): at least
        # `iters` of them, more for short calls until TIMED_MS are measured,
        # within the caps. A host-bound model's windows count when the probes
        # on both sides are steady; when fewer than `iters` calls did by
        # MAX_TIMED_S (overrun by one window at most), every call counts and
        # the time is not steady.
        kept, unsteady, outputs, windows = [], [], {}, 0
        since = time.perf_counter()
        before = host.sample() if host_bound else None
        while True:
            window, window_since = [], time.perf_counter()
            while True:
                index = (len(kept) + len(unsteady) + len(window)) % len(sets)
                ms, _, outputs[index] = calls.call(index)
                window.append(ms)
                if (not host_bound or time.perf_counter() - window_since >= WINDOW_S
                        or _enough(kept + window, iters)):
                    break
            after = host.sample() if host_bound else None
            (kept if not host_bound or host.steady(before, after) else unsteady).extend(window)
            before, windows = after, windows + 1
            elapsed = time.perf_counter() - since
            if _enough(kept, iters) or (elapsed >= MAX_TIMED_S and len(kept) + len(unsteady) >= iters):
                break
            if patient and host_bound and not kept and windows >= PATIENT_WINDOWS:
                return None
    steady = len(kept) >= iters
    if patient and not steady:
        return None
    return Measurement(statistics.median(kept if steady else kept + unsteady), outputs, calls.same_storage,
                       host_bound, steady)


def _enough(times, iters):
    return len(times) >= iters and (sum(times) >= TIMED_MS or len(times) >= MAX_TIMED_CALLS)


def shares_storage(a, b):
    def pointers(value):
        values = value if isinstance(value, (tuple, list)) else [value]
        return {v.data_ptr() for v in values if isinstance(v, torch.Tensor) and v.numel() > 0}
    return bool(pointers(a) & pointers(b))
