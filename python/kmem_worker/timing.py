"""Measuring a model the same way for the reference and the candidate: an
L2 (or last-level cache) flush before every call, a timer around the call
with a device-wide synchronise before it stops (work on any stream counts),
warm-up of a length the model cannot predict, input sets drawn ahead by the
trusted reference from seeds no one else learns, one set per timed call
(callsets.py), and the median. A model bound by the host (its calls spend
most of their time launching work, or it runs on the CPU) is timed in
windows with a probe of the host's speed between them, and only the windows
run at the host's usual speed count, if enough of them come within the time
allowed (host_speed.py); on a GPU, one that finds the host slow comes back
for another round at the timing lock later (measure_in_rounds).

Out of reach of the candidate: the whole measurement runs in kmem's native
harness (harness.cpp, loaded when this module is imported, before any
candidate code): flush, synchronise, events, the call through the C API,
the output's check by exact type and device, the copy of judged calls'
outputs into the reference's slots, the stopping rules and the median. Only
the rounds at the timing lock are Python, bound when the Harness is made.
Its results carry the harness's tally of every call timed, which the
orchestrator checks against its own clock over the timing lock
(docs/measurement.md, forged_timing)."""
import collections
import pickle
import time

import torch

from . import host_speed, native_harness, problem

# kmem's native harness module, loaded before any candidate code is imported.
NATIVE = native_harness.load()

# Names this way of measuring; cached reference times of another method are
# not reused (facts_cache.py).
METHOD = "drawn-ahead-native-flush-sync-median-steady-5"
CPU_CACHE_BYTES = 32 << 20  # used where the CPU's last-level cache size is unknown
WARMUP_S = 0.1  # warm-up lasts at least this long, flushes included (clocks ramp up from idle)
TIMED_MS = 200.0  # short calls are repeated until this much is measured...
MAX_TIMED_CALLS = 1000  # ...up to this many calls (and as many as there are call sets)...
MAX_TIMED_S = 1.0  # ...or this long, flushes included, once the minimum is reached
HOST_BOUND_SHARE = 0.5  # warm-up calls spending this share of their time launching: host-bound
WINDOW_S = 0.02  # a host-bound model's timed calls between two probes of the host's speed (wall time)
# A host-bound model on a GPU that finds the host slow gives the timing lock
# back and comes again later, ROUNDS rounds at most, ROUND_PAUSE_S apart (slow
# spells last seconds); a round gives up once its first PATIENT_WINDOWS
# windows are all slow, or at MAX_TIMED_S without enough steady calls.
ROUNDS = 3
ROUND_PAUSE_S = 1.0
PATIENT_WINDOWS = 5
# Timed calls whose outputs the reference compares in full with its own: a
# reservoir of the timed calls, each call picked (or not) after it returned,
# by the reference's Stager from getrandom(). The reservoir holds as many
# calls as judging affords (judged_calls), never fewer than JUDGED_CALLS:
# when the candidate makes no more timed calls than that, every one is
# judged; else a candidate whose outputs are wrong in a share f of its
# timed calls escapes with probability (1 - f) ** reservoir (0.4% at f = 1/2,
# what moving the median takes, with the 8 kept where judging is dear).
JUDGED_CALLS = 8
# What judging may cost: the reservoir's outputs at most these bytes, and
# the reference's forwards that judging repeats, each with the comparison's
# own launches (about JUDGE_CALL_MS), at most these milliseconds.
JUDGE_BYTES = 64 << 20
JUDGE_MS = 100.0
JUDGE_CALL_MS = 0.25


def judged_calls(possible_calls, output_bytes, reference_ms):
    """Timed calls whose outputs the reference keeps and compares in full:
    every one of the `possible_calls` a candidate can make (one per timed
    set) where judging that many is cheap, else as many as the budgets
    above allow, at least JUDGED_CALLS. `reference_ms` None: the reference's
    time is unknown (JUDGED_CALLS)."""
    if reference_ms is None:
        return JUDGED_CALLS
    by_bytes = JUDGE_BYTES // max(output_bytes, 1)
    by_time = int(JUDGE_MS / (reference_ms + JUDGE_CALL_MS))
    return max(JUDGED_CALLS, min(possible_calls, by_bytes, by_time))


def warm_sets(warmup):
    """Input sets the warm-up calls use in turn (the rest serve one timed call each)."""
    return max(1, warmup)


# ms: the median; same_storage: two consecutive calls returned the same
# storage; host_bound: timed in windows between probes of the host's speed;
# steady: the median comes from windows at the host's usual speed only
# (always when not host-bound); calls, measured_ms, fastest_ms, slowest_ms:
# the native harness's tally of every call timed, warm-up and every round
# included; calls_without_own: {"warmup": n, "timed": n}, the calls during
# which the `launches` count given to the harness did not move (None: no
# count given).
Measurement = collections.namedtuple(
    "Measurement",
    "ms same_storage host_bound steady calls measured_ms fastest_ms slowest_ms calls_without_own")

Settings = collections.namedtuple(
    "Settings", "warmup_s timed_ms max_timed_calls max_timed_s host_bound_share window_s rounds round_pause_s "
                "patient_windows")


def settings():
    """The module's settings as they are now (tests change them)."""
    return Settings(WARMUP_S, TIMED_MS, MAX_TIMED_CALLS, MAX_TIMED_S, HOST_BOUND_SHARE, WINDOW_S, ROUNDS,
                    ROUND_PAUSE_S, PATIENT_WINDOWS)


def cache_bytes(device):
    """The size of the cache a flush must evict: the device's L2, or the CPU's last level."""
    if device == "cuda":
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        return getattr(props, "L2_cache_size", 0) or (64 << 20)
    return CPU_CACHE_BYTES


class Harness:
    """The native harness of one worker and measure_in_rounds(), bound when
    it is made: make it before any candidate code is imported. `launches`
    (optional) returns a running count of the candidate's own kernel
    launches; `strict` checks every output (plain tensors on the reference's
    devices; candidates), else outputs are taken as they come (the trusted
    reference). Give it its call sets with load() (a CallSets description,
    candidates) or load_local() (tensors, the reference) before measuring."""

    def __init__(self, device, launches=None, options=None, strict=True, probe=host_speed.probe_ms):
        options = options or settings()
        self.native = NATIVE.Harness(
            device, 2 * cache_bytes(device), launches, probe, tuple(problem.RETURN_TYPES),
            (options.warmup_s, options.timed_ms, options.max_timed_calls, options.max_timed_s,
             options.host_bound_share, options.window_s, options.patient_windows, host_speed.STEADY_RATIO),
            strict)
        self.measure_in_rounds, self.measure_once = _bind(device, self.native, options, launches is not None)

    def load(self, device, description, devices, loads=pickle.loads):
        """Maps the call sets a CallSets described (pickled bytes: no code
        runs in loading them) and drops the description."""
        layout = loads(description)
        self.native.load(device, layout["regions"], _with_dtypes(layout["calls"]), layout["warm"],
                         _with_dtypes([layout["out_slot"]])[0], _with_dtypes([[layout["report"]]])[0][0], list(devices),
                         layout.get("control"))

    def load_local(self, sets, warm):
        """Call sets given as lists of values (the first `warm` for the warm-up)."""
        self.native.load_local([list(s) for s in sets], warm)


def _with_dtypes(calls, dtypes={str(d): d for d in vars(torch).values() if isinstance(d, torch.dtype)}):
    """Layout entries with their dtype names turned into torch dtypes."""
    def entry(e):
        if isinstance(e, tuple) and len(e) == 6 and e[0] == "tensor":
            return ("tensor", e[1], e[2], dtypes[e[3]], e[4], e[5])
        return e
    return [[entry(e) for e in call] for call in calls]


def _bind(device, native, options, counted, sleep=time.sleep, measurement=Measurement, range=range):
    """measure_in_rounds() and measure_once() as closures over the native
    harness (default values are taken once, when this module is imported)."""
    rounds_default, round_pause_s = options.rounds, options.round_pause_s
    measure = native.measure

    def measure_in_rounds(channel, stopwatch, model, warmup, iters, host, rounds=None):
        """The measurement while holding the timing lock (channel: Channel),
        laps of `stopwatch` charged to timing_wait, timing and timing_pause,
        in up to `rounds` rounds at it (default: `rounds` of the settings on a
        GPU; on the CPU, where every model is host-bound and only the tests
        run, one). Every round but the last is patient: a host-bound model
        that finds the host slow gives up, and the lock goes to others until
        the next round. The last round measures whatever the host's speed
        (then not steady)."""
        if rounds is None:
            rounds = rounds_default if device == "cuda" else 1
        calls, measured_ms, fastest, slowest = 0, 0.0, None, None
        missing = {"warmup": 0, "timed": 0}
        for this_round in range(1, rounds + 1):
            patient = this_round < rounds
            host.learn(channel.acquire_timing_lock())
            stopwatch.lap("timing_wait")
            try:
                result, tally, round_missing, probe = measure(model, warmup, iters, host.fastest_ms, patient)
            finally:
                channel.release_timing_lock()
            stopwatch.lap("timing")
            host.learn(probe)
            if tally[0] > 0:
                calls, measured_ms = calls + tally[0], measured_ms + tally[1]
                fastest = tally[2] if fastest is None else min(fastest, tally[2])
                slowest = tally[3] if slowest is None else max(slowest, tally[3])
            for phase in missing:
                missing[phase] += round_missing[phase]
            if result is not None:
                return measurement(*result, calls, measured_ms, fastest, slowest, missing if counted else None)
            sleep(round_pause_s)
            stopwatch.lap("timing_pause")

    def measure_once(model, warmup, iters, host, patient=False):
        """One measurement without the timing lock (tests); None for a patient one that gave up."""
        result, tally, missing, probe = measure(model, warmup, iters, host.fastest_ms, patient)
        host.learn(probe)
        if result is None:
            return None
        return measurement(*result, *tally, missing if counted else None)

    return measure_in_rounds, measure_once
