"""The trusted reference role: draws the trials' input sets from the secret
seed, computes and keeps the expected outputs, times the reference on input
sets drawn ahead (or takes its time from the facts cache), gives each
candidate its own copy of the trials' inputs (never the expected outputs),
by CUDA IPC blank output slots, and the input sets of its warm-up and timed
calls, drawn here from seeds no one else learns (callsets.py). It then judges
the outputs candidates put in those slots or saved to a file, checks that no
warm-up or timed call changed its inputs and compares the judged timed
calls' outputs in full with its own for the same sets. A reference worker
runs only trusted code, so one process hosts several problems at once, each
under the handle the orchestrator gave it in `prepare` and named in every
later command, until `drop`."""
import gc
import sys
import time
import traceback

import torch

from . import (callsets, compare, compile_baseline, facts_cache, failures, footprint, host_speed, problem, roofline,
               timing, transfer)
from .stopwatch import Stopwatch


# Probes of the host's speed each preparation takes, so that the orchestrator
# learns the host's usual speed from trusted workers even when no reference
# is timed (host_speed.py); the fastest is remembered in the facts cache.
PREPARE_PROBES = 3


class Reference:
    """A problem prepared for `prepare` (inputs, expected outputs, the eager
    time; a compile baseline only as cached), or with `baseline_only` for
    `baseline`: the compile baseline alone, measured unless cached, on a
    worker that serves no candidate, so that compiling (seconds to a minute
    a problem) holds up no candidate's inputs or judgement."""

    def __init__(self, cmd, channel, clock, host, baseline_only=False):
        self.device = cmd["device"]
        meter = footprint.Meter(self.device)
        self.module_name = module_name(cmd["ref"])
        problem.reset_torch_state()  # before the problem's code and after it
        self.module = problem.load_module(cmd["problem"], self.module_name)
        init_inputs = list(self.module.get_init_inputs())
        self.model, init_on_device = problem.build_reference_model(
            self.module.Model, init_inputs, cmd["init_seed"], self.device)
        problem.reset_torch_state()
        clock.lap("load")
        spec = cmd["timing"]
        self.warmup, self.iters = spec["warmup"], spec["iters"]
        self.draw = problem.input_drawer(self.module, self.device)
        self.trial_inputs = [problem.draw_inputs(self.module, problem.trial_seed(cmd["secret_seed"], i), self.device)
                             for i in range(1 if baseline_only else cmd["trials"])]
        # Input sets per candidate (and for the reference's own timing):
        # as many as the byte budget holds, within callsets' bounds.
        self.warm = timing.warm_sets(self.warmup)
        per_set = callsets.set_bytes(self.trial_inputs[0]) if self.trial_inputs else 0
        budget = callsets.budget_bytes(self.device, cmd.get("call_sets_mb", 0))
        self.set_count = callsets.set_count(per_set, budget, self.warm, self.iters)
        self.timed_calls = callsets.timed_calls(self.set_count, self.warm, self.iters)
        # Sets drawn ahead are held beside a candidate's copy: only while
        # within the budget (problems with huge inputs draw at `share`).
        self.draws_ahead = self.set_count * per_set <= budget
        self.ahead = None  # input sets drawn for the next candidate
        self.expected = [] if baseline_only else meter.watch(
            lambda: [self._outputs(inputs) for inputs in self.trial_inputs])
        clock.lap("expected")
        self.cache = facts_cache.FactsCache(
            cmd.get("facts_cache"), facts_cache.key(cmd["problem"], self.device, spec))
        # A time asked for afresh replaces the stored entry once, when first stored.
        self.replace_stored = bool(cmd.get("retime"))
        known = {} if self.replace_stored else self.cache.read()
        self.roofline_ms = known.get("roofline_ms")
        self.floor_tried = False
        if baseline_only:
            self.replace_stored = False  # the entry is the eager reference's: the baseline joins it
            self.reference_ms, self.measured, self.steady, self.tally = None, False, True, None
        elif "reference_ms" in known:
            self.reference_ms = known["reference_ms"]
            self.measured, self.steady = False, True  # an unsteady time is no known time
            self.tally = None
        else:
            self.reference_ms, self.steady = self._measure(channel, clock, spec, host)
            self.measured = True
        self.unstored = self.measured  # facts the cache does not hold yet
        # The compile baseline, only when asked for: cached (a time or why
        # there is none); else pending (`prepare`: the orchestrator asks a
        # baseline worker) or measured (`baseline`).
        self.compile_ms, self.compile_failure, self.compile_pending = None, None, False
        if cmd.get("compile_baseline") or baseline_only:
            self.compile_ms, self.compile_failure = known.get("compile_ms"), known.get("compile_failure")
            self.compile_pending = self.compile_ms is None and self.compile_failure is None
            if self.compile_pending and baseline_only:
                self.compile_ms, self.compile_failure = self._compile_baseline(channel, clock, spec, host)
                self.compile_pending, self.unstored = False, True
        self.payload = {"init_inputs": init_inputs, "init_on_device": init_on_device,
                        "trials": self.trial_inputs,
                        "output_devices": [v.device.type for v in self.expected[0]] if self.expected else []}
        self.shared = {}  # candidate folder -> its SharedInputs
        self.calls = {}  # candidate folder -> its CallSets
        # What the problem holds on the device and one candidate's run needs
        # (None on the CPU): the orchestrator starts candidates as they fit.
        output_bytes = footprint.tensor_bytes(self.expected[0]) if self.expected else 0
        # A set per timed call: a candidate makes set_count - warm timed calls at most.
        self.judged = timing.judged_calls(self.set_count - self.warm, output_bytes, self.reference_ms)
        self.device_memory = footprint.report(
            meter.held_and_workspace(), per_set, self.set_count, self.set_count if self.draws_ahead else 0,
            output_bytes, self.judged)

    def draw_sets(self):
        """set_count input sets from fresh seeds (drawn on the device where the problem allows)."""
        return [self.draw(problem.fresh_seed()) for _ in range(self.set_count)]

    def draw_ahead(self):
        """Draws the next candidate's input sets now, between commands. It
        never raises (it runs after an answer was sent): a failure leaves
        the drawing to the next `share`."""
        if self.ahead is None and self.draws_ahead:
            try:
                self.ahead = self.draw_sets()
                problem.synchronize(self.device)
            except Exception as error:  # e.g. out of memory
                print(f"kmem: no input sets drawn ahead: {type(error).__name__}: {error}", file=sys.stderr)
                self.ahead = None
                free_memory()

    def _measure(self, channel, clock, spec, host):
        """The reference's time and whether it is steady (timing.Measurement)."""
        measured = self._timed(self.model, channel, clock, spec, host)
        self.tally = {"calls": measured.calls, "measured_ms": measured.measured_ms}
        return measured.ms, measured.steady

    def _timed(self, model, channel, clock, spec, host):
        """timing.Measurement of `model` on input sets drawn before it takes
        the timing lock, as candidates are."""
        harness = timing.Harness(self.device, strict=False)
        harness.load_local(self.draw_sets(), self.warm)
        problem.synchronize(self.device)
        try:
            return harness.measure_in_rounds(channel, clock, model, spec["warmup"], spec["iters"], host)
        finally:
            harness.native.unload()

    def _compile_baseline(self, channel, clock, spec, host):
        """(compile_ms, None) of the reference under torch.compile, timed as
        the eager one is; (None, reason) when there is none (compile_baseline.py)."""
        def timed(fast):
            return self._timed(fast, channel, clock, spec, host).ms
        try:
            return compile_baseline.measure(self.model, problem.clone_inputs(self.trial_inputs[0]), timed)
        finally:
            clock.lap("compile_baseline")
            if hasattr(torch, "_dynamo"):
                torch._dynamo.reset()  # the compiled graphs are not used again

    def store_facts(self):
        """Stores what this worker measured or computed, steady or not (an
        unsteady time is measured again next time)."""
        if self.unstored:
            facts = {"roofline_ms": self.roofline_ms}
            if self.reference_ms is not None:
                facts.update(reference_ms=self.reference_ms, steady=self.steady)
            if self.compile_ms is not None or self.compile_failure is not None:
                facts.update(compile_ms=self.compile_ms, compile_failure=self.compile_failure)
            self.cache.write(facts, replace=self.replace_stored)
            self.unstored, self.replace_stored = False, False

    def complete_floor(self):
        """Computes the roofline floor if it is not known yet, and stores it.
        The first count of a process takes seconds (torch's flop counter), so
        it runs once a candidate has its inputs and works on them (after
        `shared`), and only otherwise before a judgement. It is tried once
        and never raises: it runs after an answer was sent, and a second one
        would break the protocol; the judgements go without a floor instead."""
        if self.roofline_ms is None and not self.floor_tried:
            self.floor_tried = True
            try:
                self.roofline_ms = roofline.problem_floor_ms(
                    self.model, problem.clone_inputs(self.trial_inputs[0]), self.expected[0], self.device)
            except Exception as error:  # e.g. out of memory: a plausibility estimate must fail nothing
                print(f"kmem roofline: no floor: {type(error).__name__}: {error}", file=sys.stderr)
                free_memory()
                return
            self.unstored = True
        self.store_facts()

    def share(self, folder, ipc):
        """A copy of the inputs for the candidate working in `folder`."""
        self.release(folder)
        sets, self.ahead = self.ahead or self.draw_sets(), None
        calls = self.calls[folder] = callsets.CallSets(
            timing.NATIVE, self.device, folder, sets, self.warm, self.expected[0] if self.expected else [],
            self.judged)
        del sets
        self.shared[folder] = transfer.SharedInputs(
            {**self.payload, "calls": calls.description()}, folder, self.device, ipc, {"trials": self.expected})
        return self.shared[folder].path

    def release(self, folder):
        shared = self.shared.pop(folder, None)
        if shared is not None:
            shared.release()
        calls = self.calls.pop(folder, None)
        if calls is not None:
            calls.release()

    def close(self):
        """Drops every copy still shared and the problem's module; the caller
        drops the reference."""
        for folder in list(self.shared):
            self.release(folder)
        self.ahead = None
        sys.modules.pop(self.module_name, None)

    def _outputs(self, inputs):
        with torch.no_grad():
            output = self.model(*problem.clone_inputs(inputs))
        problem.synchronize(self.device)
        return [problem.plain_copy(v) for v in problem.as_output_list(output)]

    def degenerate(self, tolerance):
        """Whether every trial's output equals the first although the inputs differ."""
        first = self.expected[0]
        if len(self.expected) < 2:
            return False
        for other in self.expected[1:]:
            try:
                compare.check_structure(first, other, "trial")
            except compare.Mismatch:
                return False
            if not compare.errors(first, other, tolerance)[0]:
                return False
        return True

    def candidate_outputs(self, folder, outputs):
        """The trial outputs of the candidate that worked in `folder`: the
        slots it filled (outputs == "slots"), or the file it saved at path
        `outputs`."""
        if outputs == "slots":
            shared = self.shared.get(folder)
            if shared is None or shared.slots is None:
                raise ValueError(f"no output slots were shared with {folder}")
            return shared.slots["trials"]
        trials = torch.load(outputs, map_location=self.device, weights_only=True)["trials"]
        if not _calls_of_tensors(trials):
            raise ValueError(f"{outputs} holds no list of outputs per call")
        return trials

    def judge_calls(self, folder, tolerance):
        """Checks that the candidate that worked in `folder` asked for no
        input set out of turn (reading sets ahead of their calls) and that no
        warm-up or timed call changed its inputs (the Stager's report), and
        compares the outputs of its judged timed calls (self.judged:
        timing.judged_calls, kept by the Stager's reservoir after each call returned) in full with
        the reference's own for the same sets. Raises compare.Mismatch."""
        calls = self.calls.get(folder)
        if calls is None:
            raise compare.Mismatch("unreadable", f"no call sets were shared with {folder}")
        staging = calls.finish_staging()
        if staging["out_of_turn"]:
            raise compare.Mismatch("read_ahead", f"{staging['out_of_turn']} input set(s) asked for out of turn "
                                                 f"(the first: set {staging['first_out_of_turn']}): sets were read "
                                                 f"ahead of their calls")
        if staging["error"]:
            raise RuntimeError(f"staging the call sets failed: {staging['error']}")
        if staging["changed"]:
            raise compare.Mismatch("mutation", "a warm-up or timed call changed its inputs "
                                               "(the staged set differs from the set drawn)")
        judged = calls.judged_calls()
        sets = [s for _, s in judged]
        needed = min(self.judged, self.timed_calls)
        if len(judged) < needed:
            raise compare.Mismatch("timed", f"{len(judged)} timed calls judged, fewer than {needed}")
        if any(not calls.warm <= s < calls.count for s in sets):
            raise compare.Mismatch("timed", "the judged calls name input sets of no timed call")
        # One call's expected outputs at a time (a problem's outputs may be
        # GiBs; the figures are read back together at the end).
        figures = []
        for k, s in judged:
            expected = self._outputs(calls.inputs(s))
            figures.append(compare.error_figures(expected, calls.judged_outputs(k), tolerance))
            del expected
        failed = compare.first_not_close(compare.read(figures))
        if failed is not None:
            raise compare.Mismatch("timed", f"timed call {sets[failed] - calls.warm}: its output differs from "
                                            f"the reference's for the same inputs beyond tolerance {tolerance:g}")

    def harness_report(self, folder):
        """What the native harness of the candidate that worked in `folder`
        measured, from the report slot it wrote (callsets.CallSets.measured)."""
        calls = self.calls.get(folder)
        return calls.measured() if calls is not None else None

    def staged_report(self, folder):
        """What the reference's Stager saw of the candidate that worked in
        `folder` on its own clock (protocol: the verdict's `staged`), or None
        when it staged nothing; stops staging."""
        calls = self.calls.get(folder)
        if calls is None:
            return None
        staging = calls.finish_staging()
        if not staging["staged"]:
            return None
        return {"calls": staging["staged"], "judged_calls": len(staging["judged"]),
                "judged_fastest_ms": staging["judged_fastest_ms"], "output_bytes": staging["output_bytes"]}

    def judge(self, folder, outputs, inputs_changed, tolerance):
        """The facts of one candidate's trial outputs (see
        candidate_outputs) and its report of changed inputs against the
        expected ones, then its warm-up and timed calls (judge_calls)."""
        try:
            trials = self.candidate_outputs(folder, outputs)
        except Exception as error:
            return {"correct": False, "failure": "unreadable", "detail": f"outputs unreadable: {error}"}
        verdict = {"trials": len(trials), "max_abs_error": 0.0, "max_rel_error": 0.0}
        try:
            if not isinstance(inputs_changed, list) or len(inputs_changed) != len(self.expected):
                raise compare.Mismatch("missing", f"no report of changed inputs for each of {len(self.expected)} trials")
            if len(trials) != len(self.expected):
                raise compare.Mismatch("missing", f"{len(trials)} trial outputs, expected {len(self.expected)}")
            for i, (expected, actual) in enumerate(zip(self.expected, trials)):
                compare.check_structure(expected, actual, f"trial {i}")
            for i, changed in enumerate(inputs_changed):
                if changed:
                    raise compare.Mismatch("mutation", f"trial {i}: an input tensor changed")
            figures = compare.read_calls(self.expected, trials, tolerance)
            for _, worst_abs, worst_rel in figures:
                verdict["max_abs_error"] = max(verdict["max_abs_error"], worst_abs)
                verdict["max_rel_error"] = max(verdict["max_rel_error"], worst_rel)
            failed = compare.first_not_close(figures)
            if failed is not None:
                facts = compare.mismatch_facts(self.expected[failed], trials[failed], tolerance)
                if facts is not None:
                    verdict["mismatch"] = {"trial": failed, **facts}
                raise compare.Mismatch("values", f"trial {failed}: values differ beyond tolerance {tolerance:g}")
            self.judge_calls(folder, tolerance)
        except compare.Mismatch as mismatch:
            return {**verdict, "correct": False, "failure": mismatch.kind, "detail": mismatch.detail}
        return {**verdict, "correct": True}


def _calls_of_tensors(calls):
    """Whether `calls`, read from a file the candidate wrote, is a list of
    calls, each a list of its outputs (tensors, or None for any other value)."""
    return isinstance(calls, list) and all(
        isinstance(call, list) and all(v is None or isinstance(v, torch.Tensor) for v in call) for call in calls)


def finite(verdict):
    """The verdict with infinite errors capped (JSON has no infinity)."""
    return {k: min(v, 1e308) if isinstance(v, float) else v for k, v in verdict.items()}


def module_name(handle):
    """The name the problem held under `handle` is imported as."""
    return f"kmem_problem_{handle}"


def free_memory():
    """Returns what a dropped reference held (device memory included)."""
    gc.collect()
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.empty_cache()


def serve(channel, clock):
    """Serves commands until the orchestrator closes the channel. `clock`
    holds the worker's own start-up, reported with its first problem; each
    later problem's timeline starts when its `prepare` arrives."""
    references = {}  # handle -> Reference
    host = host_speed.HostSpeed(host_speed.probe_ms)
    while (cmd := channel.receive()) is not None:
        try:
            problem.reset_torch_state()  # whatever the last command's problem left behind
            if cmd["cmd"] in ("prepare", "baseline"):
                watch, clock = clock, None
                if watch is None:
                    watch = Stopwatch(time.monotonic())
                else:
                    watch.lap("wait")
                (prepare if cmd["cmd"] == "prepare" else baseline)(references, cmd, channel, watch, host)
            else:
                answer(references, cmd, channel)
        except Exception as error:
            channel.send("error", stage=cmd.get("cmd", "?"), message=f"{type(error).__name__}: {error}",
                         traceback=traceback.format_exc(), kind=failures.error_kind(error))
    return 0


def prepare(references, cmd, channel, clock, host):
    """Loads the problem of cmd["problem"] under the handle cmd["ref"];
    `ready` also carries the fastest probe of the host's speed seen here."""
    handle = cmd["ref"]
    if handle in references:
        raise ValueError(f"problem handle {handle!r} is taken")
    host.learn(facts_cache.remembered_host_probe(cmd.get("facts_cache")))
    for _ in range(PREPARE_PROBES):
        host.sample()
    try:
        reference = references[handle] = Reference(cmd, channel, clock, host)
    except Exception:
        # What the failed preparation loaded and allocated goes now: the
        # orchestrator drops a handle this worker does not hold.
        sys.modules.pop(module_name(handle), None)
        free_memory()
        raise
    channel.send("ready", reference_ms=reference.reference_ms, cached=not reference.measured,
                 compile_ms=reference.compile_ms, compile_pending=reference.compile_pending,
                 timed_calls=reference.timed_calls,
                 timing_steady=reference.steady, host_probe_ms=host.fastest_ms,
                 degenerate=reference.degenerate(cmd["tolerance"]), seconds=clock.seconds,
                 **({"timing_tally": reference.tally} if reference.tally else {}),
                 **({"device_memory": reference.device_memory} if reference.device_memory else {}))
    facts_cache.remember_host_probe(cmd.get("facts_cache"), host.fastest_ms)
    reference.store_facts()
    reference.draw_ahead()  # the first candidate's input sets, while it builds


def baseline(references, cmd, channel, clock, host):
    """The compile baseline of cmd["problem"]: measured unless cached,
    stored, answered with `compiled`. Nothing stays loaded: the handle is
    the problem's only while this command runs."""
    handle = cmd["ref"]
    if handle in references:
        raise ValueError(f"problem handle {handle!r} is taken")
    host.learn(facts_cache.remembered_host_probe(cmd.get("facts_cache")))
    try:
        measured = Reference(cmd, channel, clock, host, baseline_only=True)
        measured.store_facts()
        channel.send("compiled", compile_ms=measured.compile_ms, seconds=clock.seconds)
    finally:
        sys.modules.pop(module_name(handle), None)
        free_memory()


def answer(references, cmd, channel):
    """Every command but `prepare`, about the problem of handle cmd["ref"];
    dropping one not held (its preparation failed) is no error."""
    name, handle = cmd["cmd"], cmd.get("ref")
    if name == "drop":
        dropped = references.pop(handle, None)
        if dropped is not None:
            dropped.close()
            del dropped
            free_memory()
        channel.send("dropped")
        return
    reference = references.get(handle)
    if reference is None:
        channel.send("error", stage="protocol", message=f"{name!r} about a problem not held here: {handle!r}",
                     kind="exception")
    elif name == "share":
        channel.send("shared", path=reference.share(cmd["folder"], cmd.get("ipc", False)))
        reference.complete_floor()
        reference.draw_ahead()  # the next candidate's input sets, while this one runs
    elif name == "release":
        reference.release(cmd["folder"])
        channel.send("released")
    elif name == "judge":
        reference.complete_floor()
        measured = reference.harness_report(cmd["folder"])
        staged = reference.staged_report(cmd["folder"])
        channel.send("verdict", roofline_ms=reference.roofline_ms, **({"measured": measured} if measured else {}),
                     **({"staged": staged} if staged else {}),
                     **finite(reference.judge(cmd["folder"], cmd["outputs"], cmd["inputs_changed"],
                                              cmd["tolerance"])))
        if reference.device == "cuda":
            torch.cuda.empty_cache()  # the judgement's outputs: GPU memory the next candidates may need
    else:
        channel.send("error", stage="protocol", message=f"unexpected command {name!r}", kind="exception")
