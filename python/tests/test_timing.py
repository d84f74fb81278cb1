"""Timing a host-bound model (here on the CPU, where every model is): only
windows between probes at the host's usual speed count, unless too few come
in time; windows are short in wall time whatever the calls measure; every call gets
inputs drawn afresh and each timed call leaves its seed and sketch; outputs
are checked before anything touches them; and a turn at the timing lock
that finds the host slow gives the lock back for a later one."""
import functools
import statistics
import sys
import time
import types
import unittest
from unittest import mock

import torch

from kmem_worker import host_speed, problem, sketch, timing
from kmem_worker.stopwatch import Stopwatch


class Host:
    """A host that is slowed or not: each timed call of a model measures
    `slow_ms` while it is slowed, else `fast_ms` (the timer is faked and the
    cache flush skipped, so the machine running the test does not matter)
    and takes about CALL_S of wall time; probes read 2 ms while slowed, else
    1 ms, and `slowed(k)` says whether the host is slowed from the k-th
    probe on. Windows last WINDOW_S, about ten calls."""

    CALL_S = 0.0005
    WINDOW_S = 0.005

    def __init__(self, fast_ms, slow_ms, slowed):
        self.fast_ms, self.slow_ms, self._slowed = fast_ms, slow_ms, slowed
        self.now_slowed = False
        self.calls = {False: 0, True: 0}  # timed calls made while slowed or not
        self.speed = host_speed.HostSpeed(self._probe)
        self.probes = 0

    def _probe(self):
        self.now_slowed = self._slowed(self.probes)
        self.probes += 1
        return 2.0 if self.now_slowed else 1.0

    def time_call(self, timer, call):
        if self.probes:  # timed, not warm-up (the first probe ends it)
            self.calls[self.now_slowed] += 1
        ms = self.slow_ms if self.now_slowed else self.fast_ms
        time.sleep(self.CALL_S)
        return ms, ms, call()

    def measure(self, inputs, iters, max_timed_s=timing.MAX_TIMED_S):
        return self._faked(max_timed_s, lambda harness, model: harness.measure(model, inputs, 1, iters, self.speed))

    def measure_in_turns(self, channel, inputs, iters, turns=None, max_timed_s=timing.MAX_TIMED_S):
        clock = Stopwatch(time.monotonic())
        return self._faked(max_timed_s, lambda harness, model: harness.measure_in_turns(
            channel, clock, model, inputs, 1, iters, self.speed, turns)), clock

    def _faked(self, max_timed_s, run):
        with mock.patch.object(timing, "WINDOW_S", self.WINDOW_S), \
                mock.patch.object(timing, "MAX_TIMED_S", max_timed_s), \
                mock.patch.object(timing, "TURN_PAUSE_S", 0.0):
            harness = timing.Harness("cpu", make_clock=lambda: FakeClock(self))
        return run(harness, torch.nn.Identity())


class FakeClock:
    """A clock timing every call as the Host says."""

    def __init__(self, host):
        self._host = host
        self.calls = 0

    def call(self, model, args):
        self.calls += 1
        return self._host.time_call(self, lambda: model(*args))

    def tally(self):
        return self.calls, 0.0, 0.0, 0.0


class Channel:
    """The timing lock's side of a worker's channel: counts turns, and
    checks they do not overlap."""

    def __init__(self):
        self.turns = 0
        self.held = False

    def acquire_timing_lock(self):
        assert not self.held, "the lock taken twice"
        self.held, self.turns = True, self.turns + 1
        return None

    def release_timing_lock(self):
        assert self.held, "the lock released unheld"
        self.held = False


def draw(seed):
    """Inputs drawn from `seed`, as problem.draw_inputs does."""
    return [torch.full((4,), float(seed), dtype=torch.float64)]


class MeasureTest(unittest.TestCase):
    def test_windows_measured_while_the_host_is_slowed_do_not_count(self):
        # Two probes in eight fast: one window in eight lies between two fast probes.
        host = Host(fast_ms=1.0, slow_ms=2.0, slowed=lambda k: (k // 2) % 4 != 0)
        measured = host.measure(draw, 20)
        self.assertGreater(host.calls[True], host.calls[False], "most calls slowed: their median is slow")
        self.assertTrue(measured.host_bound)
        self.assertTrue(measured.steady)
        self.assertEqual(measured.ms, 1.0)

    def test_without_enough_steady_windows_in_time_every_call_counts_and_the_time_is_unsteady(self):
        host = Host(fast_ms=1.0, slow_ms=3.0, slowed=lambda k: True)
        host.speed.learn(1.0)  # the usual speed, seen by another worker
        measured = host.measure(draw, 20, max_timed_s=0.2)
        self.assertFalse(measured.steady)
        self.assertEqual(measured.ms, 3.0)

    def test_tiny_calls_still_come_in_short_windows(self):
        # 0.001 ms measured per call: windows by measured time would need
        # thousands of calls each; they last WINDOW_S of wall time instead.
        host = Host(fast_ms=0.001, slow_ms=0.001, slowed=lambda k: False)
        measured = host.measure(draw, 20, max_timed_s=0.3)
        self.assertTrue(measured.steady)
        self.assertGreaterEqual(host.probes, 5)

    def test_a_steady_host_keeps_every_call(self):
        host = Host(fast_ms=1.0, slow_ms=1.0, slowed=lambda k: False)
        measured = host.measure(draw, 20)
        self.assertTrue(measured.steady)
        self.assertGreaterEqual(measured.calls, 20)


class TurnsTest(unittest.TestCase):
    def test_a_turn_that_finds_the_host_slow_gives_the_lock_back_and_the_next_one_measures(self):
        # Slow for the first turn's probes (one before its windows, one after
        # each of the PATIENT_WINDOWS windows), fast from the second on.
        first_turn = 1 + timing.PATIENT_WINDOWS
        host = Host(fast_ms=1.0, slow_ms=2.0, slowed=lambda k: k < first_turn)
        host.speed.learn(1.0)
        channel = Channel()
        measured, clock = host.measure_in_turns(channel, draw, 20, turns=3)
        self.assertEqual(channel.turns, 2)
        self.assertFalse(channel.held)
        self.assertTrue(measured.steady)
        self.assertEqual(measured.ms, 1.0)
        self.assertEqual(set(clock.seconds), {"timing_wait", "timing", "timing_pause"})

    def test_the_last_turn_measures_whatever_the_hosts_speed(self):
        host = Host(fast_ms=1.0, slow_ms=3.0, slowed=lambda k: True)
        host.speed.learn(1.0)
        channel = Channel()
        measured, _ = host.measure_in_turns(channel, draw, 20, turns=3, max_timed_s=0.2)
        self.assertEqual(channel.turns, 3)
        self.assertFalse(measured.steady)
        self.assertEqual(measured.ms, 3.0)

    def test_on_the_cpu_one_turn_is_all(self):
        host = Host(fast_ms=1.0, slow_ms=3.0, slowed=lambda k: True)
        host.speed.learn(1.0)
        channel = Channel()
        measured, clock = host.measure_in_turns(channel, draw, 20, max_timed_s=0.2)
        self.assertEqual(channel.turns, 1)
        self.assertFalse(measured.steady)
        self.assertNotIn("timing_pause", clock.seconds)

    def test_a_steady_host_takes_one_turn(self):
        host = Host(fast_ms=1.0, slow_ms=1.0, slowed=lambda k: False)
        channel = Channel()
        measured, _ = host.measure_in_turns(channel, draw, 20, turns=3)
        self.assertEqual(channel.turns, 1)
        self.assertTrue(measured.steady)


class NativeClockTest(unittest.TestCase):
    """The real harness: kmem's native clock times each call, and nothing
    the candidate replaces after the harness was made changes the times."""

    class Sleeper(torch.nn.Module):
        def forward(self, x):
            time.sleep(0.004)
            return x + 1

    def measure(self, harness):
        return harness.measure(self.Sleeper(), draw, 1, 10, host_speed.HostSpeed(lambda: 1.0))

    def test_the_native_clock_times_the_call_and_tallies_every_call(self):
        measured = self.measure(timing.Harness("cpu"))
        self.assertGreaterEqual(measured.ms, 4.0)
        self.assertLess(measured.ms, 400.0)
        self.assertGreaterEqual(measured.calls, 10)
        self.assertGreaterEqual(measured.measured_ms, 4.0 * measured.calls)
        self.assertLessEqual(measured.fastest_ms, measured.ms)
        self.assertGreaterEqual(measured.slowest_ms, measured.ms)

    def test_replacing_the_timing_module_the_clocks_and_the_median_changes_nothing(self):
        harness = timing.Harness("cpu")
        fake = functools.update_wrapper(lambda *args, **kwargs: 0.0, time.perf_counter)
        with mock.patch.object(time, "perf_counter", fake), \
                mock.patch.object(statistics, "median", lambda values: 0.001), \
                mock.patch.object(timing, "shares_storage", lambda a, b: False), \
                mock.patch.dict(sys.modules, {"kmem_worker.timing": types.ModuleType("fake")}), \
                mock.patch.object(timing.native_clock, "Clock", None):
            measured = self.measure(harness)
        self.assertGreaterEqual(measured.ms, 4.0)

    def test_calls_without_a_launch_of_the_candidates_own_are_counted(self):
        count = {"launches": 0}

        class Sometimes(torch.nn.Module):
            def forward(self, x):
                if count["calls"] % 2 == 0:
                    count["launches"] += 1
                count["calls"] += 1
                return x + 1
        count["calls"] = 0
        harness = timing.Harness("cpu", launches=lambda: count["launches"])
        measured = harness.measure(Sometimes(), draw, 2, 10, host_speed.HostSpeed(lambda: 1.0))
        self.assertGreater(measured.calls_without_own["warmup"] + measured.calls_without_own["timed"], 0)
        self.assertIsNone(timing.Harness("cpu").measure(Sometimes(), draw, 1, 4,
                                                        host_speed.HostSpeed(lambda: 1.0)).calls_without_own)


class FreshInputsTest(unittest.TestCase):
    """Every call gets inputs of a seed of its own; the timed calls' seeds
    and output sketches are what the reference judges."""

    def measure(self, model, sketch=None, check=None):
        drawn = []

        def recorded(seed):
            drawn.append(seed)
            return draw(seed)
        harness = timing.Harness("cpu", check=check, sketch=sketch)
        return harness.measure(model, recorded, 2, 10, host_speed.HostSpeed(lambda: 1.0)), drawn

    def test_every_call_draws_a_seed_never_drawn_before(self):
        measured, drawn = self.measure(torch.nn.Identity())
        self.assertEqual(len(drawn), measured.calls)
        self.assertEqual(len(set(drawn)), len(drawn))

    def test_the_timed_calls_leave_their_seeds_and_sketches_in_order(self):
        measured, drawn = self.measure(torch.nn.Identity(), sketch=lambda values: [sketch.sketch(v) for v in values])
        seeds, (sketches,) = measured.timed
        seeds = seeds.tolist()
        first = drawn.index(seeds[0])
        sketched_first = min(len(drawn) - first, timing.SKETCHED_FIRST)
        self.assertEqual(seeds[:sketched_first], drawn[first:first + sketched_first], "the first timed calls")
        positions = [drawn.index(seed) for seed in seeds]
        self.assertEqual(positions, sorted(positions), "later ones in order, some left out")
        self.assertEqual(sketches.shape, (len(seeds), 4, 3))
        self.assertEqual(sketches[0, 0, 0].item(), float(seeds[0]))

    def test_a_content_cache_never_hits(self):
        class ContentCache(torch.nn.Module):
            """Returns the output kept for inputs whose first elements it saw before."""

            def __init__(self):
                super().__init__()
                self.kept, self.hits = {}, 0

            def forward(self, x):
                key = tuple(x.flatten()[:2].tolist())
                self.hits += key in self.kept
                self.kept.setdefault(key, x + 1)
                return self.kept[key]
        model = ContentCache()
        measured, _ = self.measure(model)
        self.assertEqual(model.hits, 0)
        self.assertGreaterEqual(measured.calls, 10)

    def test_an_output_refused_by_the_check_stops_the_measurement(self):
        class Renamed(torch.Tensor):
            pass
        Renamed.__module__, Renamed.__qualname__ = "torch", "Tensor"

        class Lazy(torch.nn.Module):
            def forward(self, x):
                return x.as_subclass(Renamed)
        with self.assertRaises(problem.OutputRejected) as raised:
            self.measure(Lazy(), check=problem.checked_outputs)
        self.assertEqual(raised.exception.stage, "output_type")


@unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
class NativeClockCudaTest(unittest.TestCase):
    """On a GPU the native clock's events (driver API, legacy default stream)
    time what torch's own events time."""

    def test_the_native_clock_agrees_with_torch_events(self):
        a = torch.randn(4096, 4096, device="cuda")
        model = torch.nn.Linear(4096, 4096, device="cuda")
        with torch.no_grad():
            model(a)
            torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            times = []
            for _ in range(20):
                start.record()
                model(a)
                torch.cuda.synchronize()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end))
        expected = statistics.median(times)
        measured = timing.Harness("cuda").measure(model, lambda seed: [a], 3, 20,
                                                  host_speed.HostSpeed(host_speed.probe_ms))
        self.assertFalse(measured.host_bound)
        self.assertGreater(measured.ms, expected * 0.7)
        self.assertLess(measured.ms, expected * 1.5 + 0.05)
        self.assertGreaterEqual(measured.calls, 20)


class HostSpeedTest(unittest.TestCase):
    def test_steady_is_within_the_ratio_of_the_fastest_probe_seen_or_learnt(self):
        host = host_speed.HostSpeed(probe=lambda: 1.2)
        host.learn(None)
        host.learn(-1)
        self.assertIsNone(host.fastest_ms)
        host.sample()
        host.learn(1.0)
        self.assertEqual(host.fastest_ms, 1.0)
        self.assertTrue(host.steady(1.0, host_speed.STEADY_RATIO))
        self.assertFalse(host.steady(1.0, host_speed.STEADY_RATIO * 1.01))

    def test_the_real_probe_takes_a_fraction_of_a_millisecond_to_a_few(self):
        self.assertTrue(0 < host_speed.probe_ms() < 50)


if __name__ == "__main__":
    unittest.main()
