"""A reference worker hosts several problems at once, each under its handle,
until it is dropped; dropping one it does not hold is no error, and commands
about it afterwards are answered with a protocol error (on the CPU); a
problem is computed in strict fp32 whatever its own code switched on; its
time is stored at once and its roofline floor once a candidate has its
inputs, kept when only the time is measured again, and never a reason for a
second answer; torch's settings are put back before every command; the
input sets of the warm-up and timed calls are drawn by the reference and
checked afterwards, and the judged timed calls are compared in full."""
import json
import os
import sys
import tempfile
import types
import unittest
from unittest import mock

import torch

from kmem_worker import compile_baseline, facts_cache, host_speed, problem, reference, timing
from kmem_worker.stopwatch import Stopwatch

PROBLEMS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "eval", "problems")


class FakeChannel:
    """Commands from a list; events collected; the timing lock always free."""

    def __init__(self, commands):
        self._commands = list(commands)
        self.events = []

    def receive(self):
        """The next command; a function in the list is called with the
        channel first (a candidate acting between two commands)."""
        while self._commands and callable(self._commands[0]):
            self._commands.pop(0)(self)
        return self._commands.pop(0) if self._commands else None

    def send(self, event, **fields):
        self.events.append({"event": event, **fields})

    def acquire_timing_lock(self):
        pass

    def release_timing_lock(self):
        pass


def prepare(handle, problem):
    return {"cmd": "prepare", "ref": handle, "problem": os.path.join(PROBLEMS, problem), "device": "cpu",
            "init_seed": 1, "secret_seed": 2, "trials": 2, "timing": {"warmup": 1, "iters": 2},
            "tolerance": 1e-4}


def cache_entry(command):
    """The facts cache and the path of its entry for the problem of `command` (a prepare)."""
    key = facts_cache.key(command["problem"], command["device"], command["timing"])
    return facts_cache.FactsCache(command["facts_cache"], key), os.path.join(command["facts_cache"], key + ".json")


def read_entry(path):
    with open(path) as entry:
        return json.load(entry)


class ServeTest(unittest.TestCase):
    def serve(self, commands):
        channel = FakeChannel(commands)
        self.assertEqual(reference.serve(channel, Stopwatch(0.0)), 0)
        return channel.events

    def test_two_problems_are_held_at_once_under_their_handles(self):
        with tempfile.TemporaryDirectory() as folder:
            a, b = os.path.join(folder, "a"), os.path.join(folder, "b")  # made by the orchestrator
            os.mkdir(a)
            os.mkdir(b)
            events = self.serve([
                prepare(7, "scale_add.py"),
                prepare(8, "scale_add_pair.py"),
                {"cmd": "share", "ref": 7, "folder": a},
                {"cmd": "share", "ref": 8, "folder": b},
                {"cmd": "release", "ref": 7, "folder": a},
                {"cmd": "drop", "ref": 7},
                {"cmd": "share", "ref": 7, "folder": a},
                {"cmd": "release", "ref": 8, "folder": b},
                {"cmd": "drop", "ref": 8},
            ])
        self.assertEqual([e["event"] for e in events],
                         ["ready", "ready", "shared", "shared", "released", "dropped", "error", "released", "dropped"])
        # Only the worker's first problem carries the laps from before it.
        self.assertIn("wait", events[0]["seconds"])
        self.assertNotIn("wait", events[1]["seconds"])
        self.assertIn("load", events[1]["seconds"])
        self.assertNotEqual(events[2]["path"], events[3]["path"])
        self.assertIn("not held", events[6]["message"])

    def test_a_time_measured_again_keeps_the_stored_roofline_floor(self):
        command = prepare(1, "scale_add.py")
        counted = mock.Mock(return_value=1.0)
        with tempfile.TemporaryDirectory() as folder, \
                mock.patch.object(reference.roofline, "problem_floor_ms", counted):
            command["facts_cache"] = os.path.join(folder, "cache")
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            cache, path = cache_entry(command)
            cache.write({"reference_ms": 9.0, "roofline_ms": 123.0, "steady": False})
            events = self.serve([command, {"cmd": "share", "ref": 1, "folder": scratch}])
            self.assertEqual([e["event"] for e in events], ["ready", "shared"])
            self.assertFalse(events[0]["cached"], "an unsteady time is measured again")
            stored = read_entry(path)
            self.assertNotEqual(stored["reference_ms"], 9.0, "the new time is stored")
            self.assertEqual(stored["steady"], events[0]["timing_steady"])
            self.assertEqual(stored["roofline_ms"], 123.0, "the floor is not computed again")
            counted.assert_not_called()

    def test_retiming_computes_the_floor_again(self):
        command = {**prepare(1, "scale_add.py"), "retime": True}
        with tempfile.TemporaryDirectory() as folder:
            command["facts_cache"] = folder
            cache, path = cache_entry(command)
            cache.write({"reference_ms": 9.0, "roofline_ms": 123.0, "steady": True})
            events = self.serve([command, {"cmd": "judge", "ref": 1, "folder": folder, "outputs": "/nonexistent",
                                           "inputs_changed": [], "tolerance": 1e-4}])
            self.assertFalse(events[0]["cached"])
            self.assertNotEqual(events[1]["roofline_ms"], 123.0)
            stored = read_entry(path)
            self.assertEqual(stored["roofline_ms"], events[1]["roofline_ms"])
            self.assertEqual(stored["reference_ms"], events[0]["reference_ms"], "the new time replaces a steady one")

    def test_the_floor_is_computed_once_a_candidate_has_its_inputs(self):
        command = prepare(1, "scale_add.py")
        with tempfile.TemporaryDirectory() as folder:
            command["facts_cache"] = os.path.join(folder, "cache")
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            _, path = cache_entry(command)
            self.serve([command])
            self.assertIsNone(read_entry(path)["roofline_ms"], "the time is stored at once, the floor later")
            events = self.serve([command, {"cmd": "share", "ref": 1, "folder": scratch}])
            self.assertEqual([e["event"] for e in events], ["ready", "shared"])
            self.assertGreater(read_entry(path)["roofline_ms"], 0)

    def test_a_floor_that_cannot_be_computed_costs_the_floor_only(self):
        attempts = []
        def fail(*_):
            attempts.append(1)
            raise RuntimeError("out of memory")
        with tempfile.TemporaryDirectory() as folder, mock.patch.object(reference.roofline, "problem_floor_ms", fail):
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            events = self.serve([prepare(1, "scale_add.py"), {"cmd": "share", "ref": 1, "folder": scratch},
                                 {"cmd": "judge", "ref": 1, "folder": scratch, "outputs": "/nonexistent",
                                  "inputs_changed": [], "tolerance": 1e-4},
                                 {"cmd": "release", "ref": 1, "folder": scratch}])
        self.assertEqual([e["event"] for e in events], ["ready", "shared", "verdict", "released"])
        self.assertIsNone(events[2]["roofline_ms"])
        self.assertEqual(len(attempts), 1, "tried once")

    def test_dropping_a_problem_not_held_is_no_error(self):
        events = self.serve([{"cmd": "drop", "ref": 3}])
        self.assertEqual(events, [{"event": "dropped"}])

    def test_a_problem_that_fails_to_load_leaves_its_handle_free(self):
        events = self.serve([prepare(1, "raises_on_load.py")])
        self.assertEqual([e["event"] for e in events], ["error"])
        self.assertIn("this problem cannot be built", events[0]["message"])
        self.assertNotIn(reference.module_name(1), sys.modules, "its module is not left behind")
        events = self.serve([prepare(1, "raises_on_load.py"), prepare(1, "scale_add.py")])
        self.assertEqual([e["event"] for e in events], ["error", "ready"])

    def test_a_file_of_outputs_that_is_no_list_of_tensors_per_call_is_unreadable(self):
        with tempfile.TemporaryDirectory() as folder:
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            outputs = os.path.join(scratch, "outputs.pt")
            torch.save({"trials": [[1], [2]], "timed": [[3]]}, outputs)
            events = self.serve([prepare(1, "scale_add.py"), {"cmd": "share", "ref": 1, "folder": scratch},
                                 {"cmd": "judge", "ref": 1, "folder": scratch, "outputs": outputs,
                                  "inputs_changed": [False, False], "tolerance": 1e-4}])
        self.assertEqual([e["event"] for e in events], ["ready", "shared", "verdict"])
        self.assertFalse(events[2]["correct"])
        self.assertEqual(events[2]["failure"], "unreadable", events[2]["detail"])

    def test_wrong_values_are_located_in_the_verdict(self):
        with tempfile.TemporaryDirectory() as folder:
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            events = self.serve([prepare(1, "scale_add.py"), {"cmd": "share", "ref": 1, "folder": scratch}])
            shared = torch.load(events[1]["path"], weights_only=False)
            trials = [[2.0 * x + y] for x, y in shared["trials"]]
            trials[1][0][:, -1] = float("nan")  # the last column of trial 1
            outputs = os.path.join(scratch, "outputs.pt")
            torch.save({"trials": trials}, outputs)
            events = self.serve([prepare(1, "scale_add.py"), {"cmd": "share", "ref": 1, "folder": scratch},
                                 {"cmd": "judge", "ref": 1, "folder": scratch, "outputs": outputs,
                                  "inputs_changed": [False, False], "tolerance": 1e-4}])
        verdict = events[2]
        self.assertEqual(verdict["failure"], "values")
        facts = verdict["mismatch"]
        self.assertEqual((facts["trial"], facts["output"], facts["shape"]), (1, 0, [64, 256]))
        self.assertEqual((facts["first_index"], facts["bad"], facts["nan"]), ([0, 255], 64, 64))
        self.assertEqual(facts["where"], "edges")
        self.assertEqual(facts["samples"][0]["got"], "nan")

    def test_prepare_only_reads_the_compile_baseline_and_says_when_it_is_pending(self):
        # Compiling takes seconds to a minute: a worker that serves
        # candidates never does it; `baseline` on another worker does.
        with tempfile.TemporaryDirectory() as folder:
            command = {**prepare(1, "scale_add.py"), "facts_cache": folder, "compile_baseline": True}
            with mock.patch.object(compile_baseline, "measure", mock.Mock(side_effect=AssertionError("compiled"))):
                events = self.serve([command])
            self.assertEqual(events[0]["event"], "ready", events[0])
            self.assertIsNone(events[0]["compile_ms"])
            self.assertTrue(events[0]["compile_pending"])
            self.assertIn("reference_ms", read_entry(cache_entry(command)[1]))

            with mock.patch.object(compile_baseline, "measure", lambda model, inputs, timed: (0.75, None)):
                compiled = self.serve([{**command, "cmd": "baseline", "ref": 2}, command])
            self.assertEqual(compiled[0], {"event": "compiled", "compile_ms": 0.75, "seconds": compiled[0]["seconds"]})
            self.assertEqual((compiled[1]["compile_ms"], compiled[1]["compile_pending"]), (0.75, False))
            entry = read_entry(cache_entry(command)[1])
            self.assertEqual(entry["compile_ms"], 0.75)
            self.assertIn("reference_ms", entry, "the baseline joins the eager time, never replaces it")

            without = self.serve([{**prepare(3, "scale_add.py"), "facts_cache": folder}])
            self.assertIsNone(without[0]["compile_ms"], "off unless asked for, even when cached")
            self.assertFalse(without[0]["compile_pending"])

    def test_the_compile_baseline_is_timed_once_and_its_failure_is_no_error(self):
        with tempfile.TemporaryDirectory() as folder:
            command = {**prepare(1, "scale_add.py"), "cmd": "baseline", "facts_cache": folder}
            tries = []

            def failing(model, inputs, timed):
                tries.append(model)
                return None, "RuntimeError: no compiler"
            with mock.patch.object(compile_baseline, "measure", failing):
                first = self.serve([command, command])
            self.assertEqual([e["event"] for e in first], ["compiled", "compiled"], "the handle is not kept")
            self.assertIsNone(first[0]["compile_ms"])
            self.assertEqual(len(tries), 1, "a failure is cached, not tried again")
            self.assertEqual(read_entry(cache_entry(command)[1])["compile_failure"], "RuntimeError: no compiler")
            self.assertNotIn("reference_ms", read_entry(cache_entry(command)[1]), "no eager time was measured")
            prepared = self.serve([{**command, "cmd": "prepare", "compile_baseline": True}])
            self.assertFalse(prepared[0]["compile_pending"], "a cached failure is no pending baseline")
            retimed = {**command, "retime": True}
            with mock.patch.object(compile_baseline, "measure", lambda model, inputs, timed: (0.75, None)):
                events = self.serve([retimed])
            self.assertEqual(events[0]["compile_ms"], 0.75)
            self.assertIn("reference_ms", read_entry(cache_entry(command)[1]), "a retimed baseline keeps the eager time")

    def test_the_compile_baseline_of_this_torch_is_timed_or_none(self):
        events = self.serve([{**prepare(1, "scale_add.py"), "cmd": "baseline"}])
        self.assertEqual(events[0]["event"], "compiled", events[0])
        if hasattr(torch, "compile"):
            self.assertTrue(events[0]["compile_ms"] is None or events[0]["compile_ms"] > 0)
        else:
            self.assertIsNone(events[0]["compile_ms"])

    def test_a_problem_that_switches_tf32_on_is_computed_in_fp32_and_leaves_it_off(self):
        with open(os.path.join(PROBLEMS, "scale_add.py")) as source:
            text = source.read() + "\ntorch.backends.cudnn.allow_tf32 = True\n"
        saved = torch.backends.cudnn.allow_tf32
        try:
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "tf32_on_import.py")
                with open(path, "w") as problem_file:
                    problem_file.write(text)
                events = self.serve([prepare(1, path)])
                self.assertEqual([e["event"] for e in events], ["ready"])
                self.assertFalse(torch.backends.cudnn.allow_tf32)
        finally:
            torch.backends.cudnn.allow_tf32 = saved

    def judge_calls(self, model):
        """The verdict on a candidate whose trials are right and whose
        warm-up and timed calls (by the native harness, on the sets the
        reference drew) were calls of `model`."""
        with tempfile.TemporaryDirectory() as folder:
            scratch = os.path.join(folder, "candidate")
            os.mkdir(scratch)
            outputs = os.path.join(scratch, "outputs.pt")

            def candidate(channel):
                shared = torch.load(channel.events[-1]["path"], weights_only=False)  # written by the reference
                torch.save({"trials": [[2.0 * x + y] for x, y in shared["trials"]]}, outputs)
                harness = timing.Harness("cpu")
                harness.load("cpu", shared["calls"], shared["output_devices"])
                harness.measure_once(model, 1, 2, host_speed.HostSpeed(host_speed.probe_ms))
                harness.native.unload()
            events = self.serve([prepare(1, "scale_add.py"), {"cmd": "share", "ref": 1, "folder": scratch}, candidate,
                                 {"cmd": "judge", "ref": 1, "folder": scratch, "outputs": outputs,
                                  "inputs_changed": [False, False], "tolerance": 1e-4}])
        self.assertEqual([e["event"] for e in events], ["ready", "shared", "verdict"], events)
        return events[2]

    def test_honest_timed_calls_pass_within_the_tolerance(self):
        self.assertTrue(self.judge_calls(lambda x, y: 2.0 * x + y)["correct"])
        self.assertTrue(self.judge_calls(lambda x, y: (2.0 * x + y) * (1 + 5e-5))["correct"])

    def test_a_wrong_timed_output_is_a_timed_mismatch_even_when_its_block_sums_are_right(self):
        def permuted(x, y):  # the right values, two neighbours swapped: every block's sums and maximum kept
            out = (2.0 * x + y).reshape(-1, 2)
            return out.flip(1).reshape(x.shape)
        verdict = self.judge_calls(permuted)
        self.assertEqual(verdict["failure"], "timed", verdict)

        def paired_errors(x, y):  # +-0.05 in pairs
            out = 2.0 * x + y
            out.view(-1)[0::2] += 0.05
            out.view(-1)[1::2] -= 0.05
            return out
        self.assertEqual(self.judge_calls(paired_errors)["failure"], "timed")

    def test_a_timed_call_that_changes_its_inputs_is_an_input_mutation(self):
        def writes_into_input(x, y):
            x.mul_(2.0).add_(y)
            return x
        verdict = self.judge_calls(writes_into_input)
        self.assertEqual(verdict["failure"], "mutation", verdict)

    def test_outputs_computed_after_the_call_by_a_patched_tensor_method_are_not_what_is_judged(self):
        original = torch.Tensor.detach

        def detach(self):  # what a sketch or a copy in Python would have called after the clock
            return original(self)
        torch.Tensor.detach = detach
        try:
            verdict = self.judge_calls(lambda x, y: torch.empty_like(x))
        finally:
            torch.Tensor.detach = original
        self.assertEqual(verdict["failure"], "timed", verdict)

    def test_torch_settings_a_problem_changed_are_put_back_before_every_command(self):
        with open(os.path.join(PROBLEMS, "scale_add.py")) as source:
            text = source.read() + ("\ntorch.set_default_dtype(torch.float64)\n"
                                    "torch.use_deterministic_algorithms(True)\n"
                                    "torch.backends.cudnn.benchmark = True\n")
        try:
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "settings_on_import.py")
                with open(path, "w") as problem_file:
                    problem_file.write(text)
                events = self.serve([prepare(1, path), {"cmd": "drop", "ref": 1}])
                self.assertEqual([e["event"] for e in events], ["ready", "dropped"])
                self.assertEqual(torch.get_default_dtype(), torch.float32)
                self.assertFalse(torch.are_deterministic_algorithms_enabled())
                self.assertFalse(torch.backends.cudnn.benchmark)
        finally:
            problem.reset_torch_state()

    def test_the_reset_puts_back_inductors_setting_only_where_inductor_is_loaded(self):
        name = "torch._inductor.config"
        loaded = sys.modules.get(name)
        try:
            sys.modules.pop(name, None)
            torch._C._set_deterministic_algorithms(True, warn_only=True)  # without importing Inductor
            problem.reset_torch_state()
            self.assertFalse(torch.are_deterministic_algorithms_enabled())
            self.assertFalse(torch.is_deterministic_algorithms_warn_only_enabled())
            self.assertNotIn(name, sys.modules)  # what torch 2.x's own call imports (sympy among it)
            sys.modules[name] = inductor = types.SimpleNamespace(deterministic=True)
            problem.reset_torch_state()
            self.assertFalse(inductor.deterministic)
        finally:
            sys.modules.pop(name, None)
            if loaded is not None:
                sys.modules[name] = loaded
            problem.reset_torch_state()

    def test_a_handle_in_use_is_refused(self):
        events = self.serve([prepare(1, "scale_add.py"), prepare(1, "scale_add_pair.py")])
        self.assertEqual([e["event"] for e in events], ["ready", "error"])
        self.assertIn("taken", events[1]["message"])


if __name__ == "__main__":
    unittest.main()
