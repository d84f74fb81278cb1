"""Measuring a model the same way for the reference and the candidate: an
L2 (or last-level cache) flush before every call, a timer around the call
with a device-wide synchronise before it stops (work on any stream counts),
warm-up of a length the model cannot predict, inputs drawn afresh for every
call (warm-up and timed) from a seed no one can predict, and the median.
Each output is checked by identity (plain tensors, on the reference's
device) before anything else touches it, and each timed call leaves its
seed and the sketch of its output (sketch.py) for the reference to judge. A model bound by the host (its calls spend most
of their time launching work, or it runs on the CPU) is timed in windows
with a probe of the host's speed between them, and only the windows run at
the host's usual speed count, if enough of them come within the time
allowed (host_speed.py); on a GPU, one that finds the host slow comes back
for another turn at the timing lock later (measure_in_turns).

Out of reach of the candidate: each call is timed by kmem's native clock
(native_clock.c: flush, synchronise, events, call, synchronise, events, all
in C), and Harness binds every object the measurement uses (the clock type,
the clocks, the settings, even the builtins) when it is made, before any
candidate code is imported. Replacing this module's functions or classes,
the `time` module's clocks or torch's synchronise or events afterwards
changes nothing measured (the runtime guards still report such patches:
guards.py). Its results carry the native clock's own tally of every call
timed, which the orchestrator checks against its own clock over the timing
lock (docs/measurement.md, forged_timing)."""
import collections
import functools
import os
import statistics
import time

import torch

from . import native_clock, problem

# Names this way of measuring; cached reference times of another method are
# not reused (facts_cache.py).
METHOD = "fresh-inputs-flush-sync-median-steady-4"
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
# Timed calls whose outputs are sketched for the judgement: the first
# SKETCHED_FIRST of each measurement, then each later one with probability
# 1 / SKETCH_ONE_IN (drawn from os.urandom after the call returned, so the
# call cannot know): a few microseconds each, kept off most calls of a fast
# model, while a model changing its outputs after the first calls is still
# sketched in one call of SKETCH_ONE_IN.
SKETCHED_FIRST = 32
SKETCH_ONE_IN = 8

# ms: the median; timed: (seeds, sketches) of the sketched timed calls
# (SKETCHED_FIRST), in order (sketches: per output, the calls' sketches
# stacked on the device; None without a `sketch` function); same_storage: two consecutive calls
# returned the same storage; host_bound:
# timed in windows between probes of the host's speed; steady: the median
# comes from windows at the host's usual speed only (always when not
# host-bound); calls, measured_ms, fastest_ms, slowest_ms: the native
# clocks' tally of every call timed, warm-up and every turn included;
# calls_without_own: {"warmup": n, "timed": n}, the calls during which the
# `launches` count given to the harness did not move (None: no count given).
Measurement = collections.namedtuple(
    "Measurement",
    "ms timed same_storage host_bound steady calls measured_ms fastest_ms slowest_ms calls_without_own")

Settings = collections.namedtuple(
    "Settings", "warmup_s timed_ms max_timed_calls max_timed_s host_bound_share window_s turns turn_pause_s "
                "patient_windows")


def settings():
    """The module's settings as they are now (tests change them)."""
    return Settings(WARMUP_S, TIMED_MS, MAX_TIMED_CALLS, MAX_TIMED_S, HOST_BOUND_SHARE, WINDOW_S, TURNS,
                    TURN_PAUSE_S, PATIENT_WINDOWS)


def cache_bytes(device):
    """The size of the cache a flush must evict: the device's L2, or the CPU's last level."""
    if device == "cuda":
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        return getattr(props, "L2_cache_size", 0) or (64 << 20)
    return CPU_CACHE_BYTES


def native_clock_factory(device, clock_type=None, empty=torch.empty, partial=functools.partial):
    """A function making a clock for `device`: a native Clock whose flush
    writes a buffer of twice the cache size (so no call finds its data cached
    by the previous one); bound to the objects of the moment it is called."""
    clock_type = clock_type or native_clock.Clock
    size = 2 * cache_bytes(device) // 4 + 1024

    def make():
        buffer = empty(size, dtype=torch.float32, device=device)
        return clock_type(partial(buffer.fill_, 1.0), device == "cuda")
    return make


def shares_storage(a, b):
    """Whether two calls' checked outputs (lists of plain tensors) share storage."""
    def pointers(values):
        return {v.data_ptr() for v in values if isinstance(v, torch.Tensor) and v.numel() > 0}
    return bool(pointers(a) & pointers(b))


class Harness:
    """measure() and measure_in_turns() bound, when the harness is made, to
    every object they use: make it before any candidate code is imported.
    `make_clock` makes a clock (call(model, args), tally()) per measurement
    (default: native_clock_factory(device)); `launches` (optional) returns a
    running count of the candidate's own kernel launches; `check(output)`
    returns a call's output as a list of plain tensors or raises
    (problem.checked_outputs); `sketch(values)` (optional) sketches a timed
    call's outputs for the judgement."""

    def __init__(self, device, make_clock=None, launches=None, options=None, check=None, sketch=None):
        self.measure, self.measure_in_turns = _bind(
            device, make_clock or native_clock_factory(device), launches, options or settings(),
            check or problem.checked_outputs, sketch)


def _bind(device, make_clock, launches, options, check, sketch,
          perf_counter=time.perf_counter, sleep=time.sleep, urandom=os.urandom, median=statistics.median,
          no_grad=torch.no_grad, shares=shares_storage, measurement=Measurement, fresh_seed=problem.fresh_seed,
          stack=torch.stack, tensor=torch.tensor, int64=torch.int64,
          len=len, sum=sum, max=max, min=min, int=int, tuple=tuple, sorted=sorted, zip=zip, list=list):
    """The two functions of a Harness, as closures over the arguments (default
    values are taken once, when this module is imported)."""
    warmup_s, timed_ms, max_calls, max_timed_s, host_bound_share, window_s, turns_default, turn_pause_s, \
        patient_windows = options
    from_bytes = int.from_bytes
    sketched_first, sketch_one_in = SKETCHED_FIRST, SKETCH_ONE_IN

    def enough(times, iters):
        return len(times) >= iters and (sum(times) >= timed_ms or len(times) >= max_calls)

    def measure(model, draw, warmup, iters, host, patient=False):
        """(Measurement or None, tally) of `model`, each call on inputs
        draw(seed) of a fresh seed, `host` being this process's HostSpeed.
        A patient measurement of a host-bound model gives None instead of an
        unsteady time."""
        clock = make_clock()
        call_clock = clock.call
        state = {"previous": None, "same": False}
        missing = {"warmup": 0, "timed": 0}
        seeds, sketches = [], []

        def call(phase):
            seed = fresh_seed(urandom)
            inputs = tuple(draw(seed))
            before = launches() if launches is not None else 0
            ms, returned_ms, output = call_clock(model, inputs)
            del inputs  # its memory may serve the next call's inputs
            values = check(output)
            if launches is not None and launches() == before:
                missing[phase] += 1
            previous = state["previous"]
            if previous is not None and shares(values, previous):
                state["same"] = True
            state["previous"] = values
            if phase == "timed" and sketch is not None and (
                    len(seeds) < sketched_first or urandom(1)[0] % sketch_one_in == 0):
                seeds.append(seed)
                sketches.append(sketch(values))
            return ms, returned_ms

        warm = warmup + from_bytes(urandom(2), "little") % (warmup + 1)  # warmup..2*warmup calls
        with no_grad():
            # Warm-up: the drawn number of calls lasting at least warmup_s, so
            # clocks have ramped up; it tells whether the model is host-bound.
            started, shares_of_time = perf_counter(), []
            while len(shares_of_time) < warm or perf_counter() - started < warmup_s:
                ms, returned_ms = call("warmup")
                shares_of_time.append(returned_ms / ms if ms > 0 else 1.0)
            host_bound = device != "cuda" or median(shares_of_time) >= host_bound_share
            # Timed calls, in windows (one call each unless host-bound): at
            # least `iters` of them, more for short calls until timed_ms are
            # measured, within the caps. A host-bound model's windows count
            # when the probes on both sides are steady; when fewer than
            # `iters` calls did by max_timed_s (overrun by one window at
            # most), every call counts and the time is not steady.
            kept, unsteady, windows = [], [], 0
            since = perf_counter()
            before = host.sample() if host_bound else None
            while True:
                window, window_since = [], perf_counter()
                while True:
                    ms, _ = call("timed")
                    window.append(ms)
                    if (not host_bound or perf_counter() - window_since >= window_s
                            or enough(kept + window, iters)):
                        break
                after = host.sample() if host_bound else None
                (kept if not host_bound or host.steady(before, after) else unsteady).extend(window)
                before, windows = after, windows + 1
                elapsed = perf_counter() - since
                if enough(kept, iters) or (elapsed >= max_timed_s and len(kept) + len(unsteady) >= iters):
                    break
                if patient and host_bound and not kept and windows >= patient_windows:
                    return None, clock.tally(), missing
        steady = len(kept) >= iters
        if patient and not steady:
            return None, clock.tally(), missing
        ms = median(kept if steady else kept + unsteady)
        timed = None
        if sketch is not None:
            timed = (tensor(seeds, dtype=int64), [stack(list(per_output)) for per_output in zip(*sketches)])
        return (ms, timed, state["same"], host_bound, steady), clock.tally(), missing

    def measure_in_turns(channel, stopwatch, model, draw, warmup, iters, host, turns=None):
        """measure() while holding the timing lock (channel: Channel), laps
        of `stopwatch` charged to timing_wait, timing and timing_pause, in up
        to `turns` turns at it (default: `turns` of the settings on a GPU; on
        the CPU, where every model is host-bound and only the tests run,
        one). Every turn but the last is patient: a host-bound model that
        finds the host slow gives up, and the lock goes to others until the
        next turn. The last turn measures whatever the host's speed (then
        not steady)."""
        if turns is None:
            turns = turns_default if device == "cuda" else 1
        calls, measured_ms, fastest, slowest = 0, 0.0, None, None
        missing = {"warmup": 0, "timed": 0}
        for turn in range(1, turns + 1):
            host.learn(channel.acquire_timing_lock())
            stopwatch.lap("timing_wait")
            try:
                result, tally, turn_missing = measure(model, draw, warmup, iters, host, patient=turn < turns)
            finally:
                channel.release_timing_lock()
            stopwatch.lap("timing")
            if tally[0] > 0:
                calls, measured_ms = calls + tally[0], measured_ms + tally[1]
                fastest = tally[2] if fastest is None else min(fastest, tally[2])
                slowest = tally[3] if slowest is None else max(slowest, tally[3])
            for phase in missing:
                missing[phase] += turn_missing[phase]
            if result is not None:
                return measurement(*result, calls, measured_ms, fastest, slowest,
                                   missing if launches is not None else None)
            sleep(turn_pause_s)
            stopwatch.lap("timing_pause")

    def measure_once(model, draw, warmup, iters, host, patient=False):
        """One measurement without the timing lock (tests); None as measure() gives."""
        result, tally, missing = measure(model, draw, warmup, iters, host, patient)
        if result is None:
            return None
        return measurement(*result, *tally, missing if launches is not None else None)

    return measure_once, measure_in_turns
