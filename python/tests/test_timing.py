"""The native harness (harness.cpp through timing.Harness): every warm-up and
timed call runs on a set of its own drawn by the trusted side (the warm-up
sets in turn), timed calls stop when the sets run out, only windows between
probes at the host's usual speed count (unless too few come in time), a
patient round that finds the host slow gives up and the next one measures,
outputs are checked by exact type before anything touches them, consecutive
calls returning one buffer are seen, calls without a launch of the
candidate's own are counted, the judged calls' outputs land in the slots
with the set each came from, and nothing the candidate patches in Python
(torch.Tensor's methods, the timing module) changes what is measured or
judged."""
import hashlib
import mmap
import os
import struct
import tempfile
import threading
import time
import unittest
import weakref
from unittest import mock

import torch

from kmem_worker import callsets, host_speed, timing
from kmem_worker.stopwatch import Stopwatch


def draw(seed):
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(32, 32, generator=generator), torch.randn(32, 32, generator=generator)]


class Sets:
    """`count` call sets (`warm` for the warm-up) with `judged` slots, shared
    through a file, as the reference shares them with a candidate."""

    def __init__(self, count, warm=1, judged=4):
        self.folder = tempfile.TemporaryDirectory()
        sets = [draw(seed) for seed in range(count)]
        self.calls = callsets.CallSets(timing.NATIVE, "cpu", self.folder.name, sets, warm,
                                       [torch.empty(32, 32)], judged)

    def harness(self, launches=None, probe=None, **settings):
        with mock.patch.multiple(timing, ROUND_PAUSE_S=0.0, **settings):
            harness = timing.Harness("cpu", launches=launches, probe=probe or host_speed.probe_ms)
        harness.load("cpu", self.calls.description(), ["cpu"])
        return harness

    def close(self):
        self.calls.release()
        self.folder.cleanup()


def add(x, y):
    return x + y


def resident_kib(path):
    """[(size, rss)] in KiB of this process's mappings of the file at `path`."""
    found, current = [], None
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if not fields[0].endswith(":"):  # a mapping's header: range, mode, offset, device, inode[, name]
                current = [0, 0] if fields[5:6] == [path] else None
                if current is not None:
                    found.append(current)
            elif current is not None and fields[0] in ("Size:", "Rss:"):
                current[0 if fields[0] == "Size:" else 1] = int(fields[1])
    return [tuple(sizes) for sizes in found]


class Channel:
    def __init__(self):
        self.rounds = 0

    def acquire_timing_lock(self):
        self.rounds += 1
        return None

    def release_timing_lock(self):
        pass


class SetCountTest(unittest.TestCase):
    def test_the_budget_decides_within_a_small_floor_and_a_cap(self):
        mib = 1 << 20
        # 1 GiB sets under the 1 GiB budget: the floor, not iters' 23 sets.
        self.assertEqual(callsets.set_count(1024 * mib, 1024 * mib, 3, 20), 3 + callsets.MIN_TIMED_SETS)
        self.assertEqual(callsets.set_count(mib, 1024 * mib, 3, 20), 1024)  # the cap
        self.assertEqual(callsets.set_count(10 * mib, 1024 * mib, 3, 20), 102)
        self.assertEqual(callsets.set_count(1024 * mib, mib, 1, 2), 3)  # iters below the floor
        self.assertEqual(callsets.timed_calls(8, 3, 20), 5)
        self.assertEqual(callsets.timed_calls(102, 3, 20), 20)

    def test_the_budget_is_the_commands_or_the_devices_default(self):
        self.assertEqual(callsets.budget_bytes("cuda"), 256 << 20)
        self.assertEqual(callsets.budget_bytes("cpu", 0), 32 << 20)
        self.assertEqual(callsets.budget_bytes("cpu", 7), 7 << 20)


class JudgedCallsTest(unittest.TestCase):
    def test_every_possible_timed_call_is_judged_where_that_is_cheap(self):
        mib = 1 << 20
        self.assertEqual(timing.judged_calls(20, mib, 0.5), 20)  # 20 MiB, 15 ms of judging
        self.assertEqual(timing.judged_calls(1000, 1 << 16, 0.01), 384)  # 1000 tiny calls: 100 ms of judging
        self.assertEqual(timing.judged_calls(5, mib, 0.5), timing.JUDGED_CALLS)  # never fewer than 8

    def test_as_many_as_the_budgets_allow_where_every_one_would_cost_too_much(self):
        mib = 1 << 20
        self.assertEqual(timing.judged_calls(100, 4 * mib, 0.5), 16)  # 64 MiB of outputs
        self.assertEqual(timing.judged_calls(100, mib, 4.75), 20)  # 100 ms of judging
        self.assertEqual(timing.judged_calls(100, 128 * mib, 0.5), timing.JUDGED_CALLS)  # never fewer than 8
        self.assertEqual(timing.judged_calls(100, mib, 60.0), timing.JUDGED_CALLS)
        self.assertEqual(timing.judged_calls(100, mib, None), timing.JUDGED_CALLS)  # the time unknown


class HarnessTest(unittest.TestCase):
    def setUp(self):
        self.sets = Sets(40)

    def tearDown(self):
        self.sets.close()

    def fresh_sets(self):
        """Sets of their own (a candidate maps its sets once: the file goes once mapped)."""
        sets = Sets(10)
        self.addCleanup(sets.close)
        return sets

    def test_a_candidate_maps_its_sets_once(self):
        self.sets.harness()
        with self.assertRaises(RuntimeError):
            self.sets.harness()

    def test_a_candidate_has_every_page_of_its_sets_mapped_before_any_call(self):
        # A page first read inside a timed call costs a fault that the
        # reference's own sets never pay: a softsign that ran as eager
        # PyTorch was timed 4x slower than the same code as the reference.
        path = bytes(self.sets.calls.region.handle).decode()
        harness = self.sets.harness()
        mappings = resident_kib(path)
        self.assertEqual(len(mappings), 2, mappings)  # the creator's (the reference) and the candidate's
        for size, rss in mappings:
            self.assertEqual(rss, size)
        del harness

    def test_every_timed_call_gets_a_set_of_its_own_and_the_sets_bound_the_calls(self):
        harness = self.sets.harness()
        measured = harness.measure_once(add, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        # Small calls want 1,000: the 39 sets after the warm-up one bound them
        # (or the 1 s cap, on a loaded machine).
        self.assertTrue(5 <= harness.native.timed_calls() <= 39, harness.native.timed_calls())
        self.assertGreaterEqual(measured.calls, 1 + harness.native.timed_calls())
        self.assertTrue(measured.fastest_ms <= measured.ms <= measured.slowest_ms)
        self.assertFalse(measured.same_storage)
        # The report slot in the trusted side's memory says the same.
        report = self.sets.calls.measured()
        self.assertEqual(report["candidate_ms"], measured.ms)
        self.assertEqual((report["calls"], report["measured_ms"]), (measured.calls, measured.measured_ms))

    def test_other_threads_working_between_the_inputs_and_the_clock_are_counted(self):
        # Between a timed call's staging and its clock only the harness's
        # thread works: the CPU time any other thread uses there (one kept
        # from an earlier call, working on the staged inputs) is reported,
        # over the timed calls watched.
        harness = self.sets.harness()
        harness.measure_once(add, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        idle = self.sets.calls.measured()["background_cpu"]
        self.assertEqual(idle["calls"], harness.native.timed_calls())

        stop = threading.Event()
        block = os.urandom(1 << 22)

        def busy():  # hashing releases the GIL: this thread runs beside the harness
            while not stop.is_set():
                hashlib.sha256(block).digest()
        worker = threading.Thread(target=busy)
        worker.start()
        try:
            sets = self.fresh_sets()
            harness = sets.harness()
            harness.measure_once(add, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        finally:
            stop.set()
            worker.join()
        working = sets.calls.measured()["background_cpu"]
        self.assertGreater(working["ms"], idle["ms"] + 0.5, (idle, working))

    def test_the_stager_times_every_judged_call_on_its_own_clock(self):
        # A model that takes 3 ms a call: on the reference's clock (its
        # inputs staged to its output taken) even the fastest judged call
        # takes at least that, whatever the report slot says; one set was
        # staged per call counted.
        def slow(x, y):
            time.sleep(0.003)
            return x + y
        harness = self.sets.harness()
        measured = harness.measure_once(slow, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        staging = self.sets.calls.finish_staging()
        self.assertEqual(staging["staged"], measured.calls)
        self.assertEqual(len(staging["judged"]), 4)
        self.assertGreaterEqual(staging["judged_fastest_ms"], 3.0)
        self.assertGreaterEqual(measured.ms, 3.0)
        self.assertEqual(staging["output_bytes"], 32 * 32 * 4)

    def test_outputs_of_torchs_own_classes_pass_whatever_their_autograd_history(self):
        # The harness refuses outputs whose TensorImpl or autograd metadata
        # is of a class of the candidate's (harness.cpp, TorchOwnClasses):
        # torch's own, with or without history, views included, pass.
        weight = torch.ones(32, requires_grad=True)
        outputs = {
            "computed": lambda x, y: x + y,
            "with history": lambda x, y: (x + y) * weight,
            "view of history": lambda x, y: ((x + y) * weight).view(-1).view(32, 32),
            "leaf requiring grad": lambda x, y: (x + y).requires_grad_(True),
            "view of an input": lambda x, y: x.view(32, 32),
            "without grad": lambda x, y: torch.no_grad()(lambda: (x + y).view(32, 32))(),
            "tuple": lambda x, y: (x + y, (x * y).view(32, 32)),
        }
        for name, model in outputs.items():
            with self.subTest(name):
                sets = self.fresh_sets()
                measured = sets.harness().measure_once(model, 1, 3, host_speed.HostSpeed(host_speed.probe_ms))
                self.assertGreater(measured.ms, 0)

    def test_an_early_ask_ends_no_judged_call_before_its_output_is_taken(self):
        # The candidate's own ask (no set) as each call starts, its right
        # output made only after: the Stager takes the out-slot at that ask,
        # before anything else, so a judged call whose time on its clock
        # ends early is judged on what the out-slot held then (the last
        # call's output), never on the output made after.
        words = self.control_words()
        def early(x, y):
            self.ask(words, -1)
            time.sleep(0.003)
            return x + y
        harness = self.sets.harness()
        harness.measure_once(early, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        self.assertEqual(len(self.sets.calls.judged_calls()), 4)
        for slot, number in self.sets.calls.judged_calls():
            inputs = self.sets.calls.inputs(number)
            self.assertFalse(torch.equal(self.sets.calls.judged_outputs(slot)[0], inputs[0] + inputs[1]))

    def test_an_output_released_after_its_copy_cannot_write_the_judged_slot(self):
        # A held-out candidate returned a view of its input whose release at
        # the end of the call ran its finalizer, which wrote the right answer
        # into the out-slot before the next ask (87x on the CPU): the
        # harness now asks right after its copy, and the Stager takes the
        # out-slot then, before anything is released.
        out_slot = self.out_slot()
        def late(x, y):
            right = x + y
            returned = x.view_as(x)  # a view of the input: released as the call ends
            weakref.finalize(returned, out_slot.copy_, right)
            return returned
        harness = self.sets.harness()
        harness.measure_once(late, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        judged = self.sets.calls.judged_calls()
        self.assertEqual(len(judged), 4)
        for slot, number in judged:
            inputs = self.sets.calls.inputs(number)
            self.assertTrue(torch.equal(self.sets.calls.judged_outputs(slot)[0], inputs[0]))

    def test_fewer_timed_sets_than_iters_is_a_steady_measurement_of_each_once(self):
        # Large inputs: the budget holds the floor of sets only (callsets.set_count).
        sets = Sets(1 + callsets.MIN_TIMED_SETS)
        self.addCleanup(sets.close)
        # A host always at its usual speed: steadiness here is about the
        # count of sets, not about how busy the test machine is.
        def usual_speed():
            return 1.0
        harness = sets.harness(probe=usual_speed)
        measured = harness.measure_once(add, 1, 20, host_speed.HostSpeed(usual_speed))
        self.assertEqual(harness.native.timed_calls(), callsets.MIN_TIMED_SETS)
        self.assertTrue(measured.steady)
        self.assertIsNotNone(measured.ms)

    def test_the_judged_calls_outputs_are_in_the_slots_with_their_sets(self):
        harness = self.sets.harness()
        harness.measure_once(add, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        judged = self.sets.calls.judged_calls()
        self.assertEqual(len(judged), 4)
        self.assertEqual(len({s for _, s in judged}), 4)
        for slot, index in judged:
            x, y = self.sets.calls.inputs(index)
            self.assertTrue(torch.equal(self.sets.calls.judged_outputs(slot)[0], x + y))
        self.assertFalse(self.sets.calls.finish_staging()["changed"])

    def ask(self, words, number):
        """Asks the Stager for set `number` as a candidate writing the control block would."""
        token = int.from_bytes(os.urandom(8), "little") | 1
        struct.pack_into("q", words, 64, number)  # ControlWords.set
        struct.pack_into("Q", words, 72, token)  # ControlWords.token
        struct.pack_into("I", words, 0, struct.unpack_from("I", words, 0)[0] + 1)  # ControlWords.request
        deadline = time.monotonic() + 5
        while struct.unpack_from("Q", words, 136)[0] != token and time.monotonic() < deadline:
            time.sleep(0.002)  # ControlWords.answered

    def out_slot(self):
        """The shared out-slot (one output), as the candidate's process maps it."""
        _, _, offset, dtype, sizes, strides = self.sets.calls.out_slot[0]
        return self.sets.calls.region.tensor(offset, callsets.DTYPES[dtype], sizes, strides)

    def control_words(self):
        with open(bytes(self.sets.calls.control.handle).decode(), "r+b") as f:
            words = mmap.mmap(f.fileno(), callsets.CONTROL_BYTES)
        self.addCleanup(words.close)
        return words

    def test_every_timed_set_read_ahead_in_turn_makes_the_harness_ask_out_of_turn(self):
        # A held-out attack: in its first call the candidate asked for every
        # timed set in order, computing their outputs, then (had staging
        # wrapped around after the last set) served the harness's whole pass
        # from its cache. Each timed set is staged once: the harness's asks
        # all come out of turn.
        words = self.control_words()
        harness = self.sets.harness()
        cache = {}

        def prepass(x, y):
            if not cache:
                for number in range(1, self.sets.calls.count):
                    self.ask(words, number)
                    cache[number] = x + y
            return x + y
        harness.measure_once(prepass, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        staging = self.sets.calls.finish_staging()
        self.assertEqual(staging["first_out_of_turn"], 1, staging)
        self.assertGreaterEqual(staging["out_of_turn"], harness.native.timed_calls(), staging)

    def test_an_ask_hidden_by_setting_the_request_word_back_is_still_answered(self):
        # A held-out attack: after each call the candidate made an ask of its
        # own (a warm-up set), waited for the Stager to sleep, and set the
        # request word back, so that the harness's next bump equalled what
        # the Stager had seen and what the answer word said: the harness went
        # on without its set staged (its timed sets read ahead, unseen). An
        # ask is a token now; the harness waits for its own to be answered.
        words = self.control_words()
        harness = self.sets.harness()
        asked = []

        def trap(x, y):
            if not asked:
                self.ask(words, 1)  # the first timed set, read ahead
                asked.append(1)
            before = struct.unpack_from("I", words, 0)[0]
            self.ask(words, 0)  # a warm-up set: in turn at any time
            time.sleep(0.02)
            struct.pack_into("I", words, 0, before)  # the request word set back
            return x + y
        harness.measure_once(trap, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        staging = self.sets.calls.finish_staging()
        self.assertEqual(staging["first_out_of_turn"], 1, staging)

    def test_judged_outputs_are_taken_before_the_candidates_code_runs_again(self):
        # A held-out attack: the judged slots lay in the shared region, so a
        # candidate returned empty tensors and wrote the right outputs into
        # the slots in later calls (339x). Every timed call's output goes to
        # one shared out-slot, and the Stager's reservoir takes it into the
        # reference's memory at the next ask, before the candidate's code
        # runs again: what the candidate writes there later changes nothing.
        harness = self.sets.harness()
        out_slot = self.out_slot()

        def scribble(x, y):
            out_slot.fill_(7.0)
            return x + y
        harness.measure_once(scribble, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        judged = self.sets.calls.judged_calls()
        self.assertEqual(len(judged), 4)
        self.assertEqual(len({s for _, s in judged}), 4)
        for slot, index in judged:
            x, y = self.sets.calls.inputs(index)
            self.assertTrue(torch.equal(self.sets.calls.judged_outputs(slot)[0], x + y))

    def test_an_output_that_is_a_view_of_the_input_is_not_stale(self):
        # Every call's inputs lie in the one stage: a problem that returns a
        # view of its input returns the same storage each call, honestly.
        harness = self.sets.harness()
        measured = harness.measure_once(lambda x, y: x.view(-1), 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        self.assertFalse(measured.same_storage)

    def test_a_call_that_changes_its_inputs_is_seen_by_the_stager(self):
        harness = self.sets.harness()

        def in_place(x, y):
            return x.add_(y)
        harness.measure_once(in_place, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        self.assertTrue(self.sets.calls.finish_staging()["changed"])

    def test_every_call_is_staged_in_turn_and_the_other_sets_are_nowhere_the_candidate_maps(self):
        harness = self.sets.harness()
        seen = []

        def remember(x, y):
            seen.append((x.data_ptr(), x.clone()))
            return x + y
        harness.measure_once(remember, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        staging = self.sets.calls.finish_staging()
        self.assertEqual((staging["out_of_turn"], staging["changed"], staging["error"]), (0, False, ""))
        self.assertEqual(staging["staged"], len(seen))
        self.assertEqual(len({pointer for pointer, _ in seen}), 1)  # every call's inputs in the one stage
        timed = [x for _, x in seen[-harness.native.timed_calls():]]
        self.assertTrue(all(not torch.equal(a, b) for a, b in zip(timed, timed[1:])))  # a set of its own each

    def test_a_set_asked_for_ahead_of_its_call_is_reported_out_of_turn(self):
        # In its first (warm-up) call the candidate asks for the first timed
        # set itself, writing the control block it maps, to read it ahead:
        # the set is staged, the harness's own ask for it then comes out of
        # turn and is refused, and the reference reports it.
        words = self.control_words()
        harness = self.sets.harness()
        read = []

        def read_ahead(x, y):
            if not read:
                self.ask(words, 1)  # the first timed set (warm = 1)
                read.append(x.clone())
            return x + y
        harness.measure_once(read_ahead, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        staging = self.sets.calls.finish_staging()
        self.assertEqual((staging["out_of_turn"], staging["first_out_of_turn"]), (1, 1), staging)
        self.assertTrue(torch.equal(read[0], self.sets.calls.inputs(1)[0]))  # what the candidate read ahead

    def test_one_buffer_returned_by_every_call_is_stale(self):
        harness = self.sets.harness()
        buffer = torch.empty(32, 32)

        def stale(x, y):
            return torch.add(x, y, out=buffer)
        self.assertTrue(harness.measure_once(stale, 1, 5, host_speed.HostSpeed(host_speed.probe_ms)).same_storage)

    def test_calls_without_a_launch_of_the_candidates_own_are_counted(self):
        count = {"n": 0}
        calls = {"n": 0}

        def sometimes(x, y):
            calls["n"] += 1
            if calls["n"] % 2:
                count["n"] += 1
            return x + y
        harness = self.sets.harness(launches=lambda: count["n"])
        measured = harness.measure_once(sometimes, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
        self.assertGreater(measured.calls_without_own["timed"], 0)
        self.assertEqual(sum(measured.calls_without_own.values()), calls["n"] // 2)

    def test_outputs_of_other_types_are_refused_by_exact_type(self):
        class Renamed(torch.Tensor):
            pass
        Renamed.__module__, Renamed.__qualname__ = "torch", "Tensor"
        for model in (lambda x, y: (x + y).as_subclass(Renamed), lambda x, y: [(x + y).as_subclass(Renamed)],
                      lambda x, y: 3.0, lambda x, y: {"out": x + y}):
            harness = self.fresh_sets().harness()
            with self.assertRaises(timing.NATIVE.OutputError) as raised:
                harness.measure_once(model, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
            self.assertEqual(raised.exception.args[0], "output_type")
        for model in (lambda x, y: (x + y, x - y), lambda x, y: [x + y], lambda x, y: torch.max(x + y, 0)):
            harness = self.fresh_sets().harness()
            harness.measure_once(model, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))

    def test_patching_torch_and_the_timing_module_changes_nothing_measured_or_judged(self):
        harness = self.sets.harness()
        originals = torch.Tensor.detach, torch.Tensor.copy_, torch.Tensor.clone, time.perf_counter

        def fill(self, *args, **kwargs):  # would compute the result after the clock
            return originals[0](self)
        torch.Tensor.detach = torch.Tensor.clone = fill
        torch.Tensor.copy_ = lambda self, other, *a, **k: self
        time.perf_counter = lambda: 0.0
        try:
            with mock.patch.object(timing, "Measurement", None), mock.patch.object(timing, "NATIVE", None):
                measured = harness.measure_once(lambda x, y: torch.empty_like(x), 1, 5,
                                                host_speed.HostSpeed(host_speed.probe_ms))
        finally:
            torch.Tensor.detach, torch.Tensor.copy_, torch.Tensor.clone, time.perf_counter = originals
        self.assertGreater(measured.ms, 0)
        slot, index = self.sets.calls.judged_calls()[0]
        x, y = self.sets.calls.inputs(index)
        self.assertFalse(torch.allclose(self.sets.calls.judged_outputs(slot)[0], x + y))


class HostSpeedWindowsTest(unittest.TestCase):
    """Probes faked: 1 ms (the usual speed) or 2 ms (slowed)."""

    def setUp(self):
        self.sets = Sets(400)

    def tearDown(self):
        self.sets.close()

    def test_a_steady_host_keeps_every_window(self):
        harness = self.sets.harness(probe=lambda: 1.0, WINDOW_S=0.002)
        measured = harness.measure_once(add, 1, 5, host_speed.HostSpeed(lambda: 1.0))
        self.assertTrue(measured.steady)
        self.assertTrue(measured.host_bound)  # every model on the CPU

    def test_a_slow_host_is_unsteady_and_a_patient_round_gives_up(self):
        speed = host_speed.HostSpeed(lambda: 2.0)
        speed.learn(1.0)  # a faster probe seen elsewhere
        harness = self.sets.harness(probe=lambda: 2.0, WINDOW_S=0.002, MAX_TIMED_S=0.05)
        self.assertIsNone(harness.measure_once(add, 1, 5, speed, patient=True))
        measured = harness.measure_once(add, 1, 5, speed)
        self.assertFalse(measured.steady)

    def test_rounds_at_the_lock_until_one_measures(self):
        probes = iter([2.0] * 30)
        speed = host_speed.HostSpeed(lambda: 1.0)
        speed.learn(1.0)
        harness = self.sets.harness(probe=lambda: next(probes, 1.0), WINDOW_S=0.002)
        channel = Channel()
        measured = harness.measure_in_rounds(channel, Stopwatch(time.monotonic()), add, 1, 5, speed, rounds=3)
        self.assertGreaterEqual(channel.rounds, 2)
        self.assertTrue(measured.steady)


class HostSpeedTest(unittest.TestCase):
    def test_steady_is_within_the_ratio_of_the_fastest_probe_seen_or_learnt(self):
        speed = host_speed.HostSpeed(lambda: 1.0)
        speed.learn(0.8)
        self.assertTrue(speed.steady(1.0))
        self.assertFalse(speed.steady(0.8 * host_speed.STEADY_RATIO * 1.01))

    def test_the_real_probe_takes_a_fraction_of_a_millisecond_to_a_few(self):
        self.assertTrue(0.01 < host_speed.probe_ms() < 20.0)


CANDIDATE = """
import sys, torch
from kmem_worker import host_speed, timing
torch.zeros(1, device="cuda")  # the context, as a worker's warm-up makes it
harness = timing.Harness("cuda")
with open(sys.argv[1], "rb") as f:
    harness.load("cuda", f.read(), ["cuda"])
measured = harness.measure_once(lambda x, y: x + y, 1, 5, host_speed.HostSpeed(host_speed.probe_ms))
print(measured.ms)
"""


@unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
class CudaTest(unittest.TestCase):
    def test_a_region_the_device_cannot_hold_is_out_of_memory(self):
        # The kind the orchestrator acts on: the job is run again alone.
        from kmem_worker import failures
        torch.zeros(1, device="cuda")
        with self.assertRaises(MemoryError) as raised:
            timing.NATIVE.Region.create("cuda", 1 << 50, "")
        self.assertIn("out of memory", str(raised.exception))
        self.assertEqual(failures.error_kind(raised.exception), "out_of_memory")

    def test_device_call_sets_shared_by_ipc_with_another_process_are_timed_judged_and_reported(self):
        import os
        import subprocess
        import sys
        with tempfile.TemporaryDirectory() as folder:
            sets = [[torch.randn(256, 256, device="cuda"), torch.randn(256, 256, device="cuda")] for _ in range(30)]
            calls = callsets.CallSets(timing.NATIVE, "cuda", folder, sets, 1, [torch.empty(256, 256, device="cuda")], 4)
            path = os.path.join(folder, "calls")
            with open(path, "wb") as out:
                out.write(calls.description())
            run = subprocess.run([sys.executable, "-c", CANDIDATE, path], capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(__file__))})
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(len(calls.judged_calls()), 4)
            for slot, index in calls.judged_calls():
                x, y = calls.inputs(index)
                self.assertTrue(torch.equal(calls.judged_outputs(slot)[0], x + y))
            self.assertFalse(calls.finish_staging()["changed"])
            measured = calls.measured()
            self.assertAlmostEqual(measured["candidate_ms"], float(run.stdout.split()[-1]), places=9)
            self.assertGreaterEqual(measured["calls"], 1 + 29)
            calls.release()


if __name__ == "__main__":
    unittest.main()
