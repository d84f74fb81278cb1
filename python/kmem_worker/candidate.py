"""The untrusted candidate role: imports the candidate (its extensions built
through the intercepted load_inline), builds ModelNew, runs the correctness
trials on clones of the reference's inputs, and has kmem's native harness
(timing.py, harness.cpp) time it under the orchestrator's timing lock on
input sets the reference drew ahead, one per call (callsets.py): the
candidate's process never draws inputs. The harness copies the outputs of
the judged timed calls into the reference's slots; the trial outputs are
handed over by outputs.py. Every output is checked by identity before
anything touches it (problem.checked_outputs, harness.cpp).
Reports facts (observations, runtime guards among them: guards.py) only; the
last record it writes carries the nonce."""
import os
import threading
import time
import traceback

import torch

from . import audit, compare, failures, guards, host_speed, kernels, outputs, problem, sandbox, timing, transfer


class StageError(Exception):
    """An error of `stage`; an output refused by its check is its own stage."""

    def __init__(self, stage, error):
        if isinstance(error, problem.OutputRejected):
            stage = error.stage
        elif isinstance(error, timing.NATIVE.OutputError):  # the native harness's check: (stage, message)
            stage = error.args[0]
        super().__init__(f"{type(error).__name__}: {error}")
        self.stage = stage
        self.trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        # Out of memory (by type), or a sticky device error (illegal memory
        # access, ...) that leaves the CUDA context unusable: the process is
        # as good as crashed (failures.py).
        self.kind = failures.error_kind(error)


def stage(name, call):
    try:
        return call()
    except Exception as error:
        raise StageError(name, error) from error


def forward_trials(model, trial_inputs, device, kept, launches, check):
    """Runs every correctness trial on clones, keeping the outputs in `kept`
    (each checked by `check` first). Returns whether each trial changed its
    inputs, how many trials made no launch of the candidate's own
    (`launches()`: the running count) and the seconds the calls took."""
    inputs_changed, without_own, seconds = [], 0, 0.0
    for i, inputs in enumerate(trial_inputs):
        clones = problem.clone_inputs(inputs)
        before = launches()
        begin = time.perf_counter()
        with torch.no_grad():
            result = model(*clones)
        problem.synchronize(device)
        seconds += time.perf_counter() - begin
        without_own += launches() == before
        kept.keep(i, check(result))
        inputs_changed.append(not compare.same_inputs(inputs, clones))
    return inputs_changed, without_own, seconds


def event_share(model, inputs, own_time):
    """(own GPU milliseconds, their share of the forward's GPU time) in one
    forward on `inputs` (clones of a trial's), by CUDA events around the calls of
    the candidate's own kernels; None for the share when nothing ran."""
    def call():
        with torch.no_grad():
            model(*inputs)
    own, total = own_time.share_of(call)
    return own, (min(1.0, own / total) if total > 0 else None)


def profiled_launches(model, inputs, names):
    """(launches of kernels called `names`, their GPU milliseconds, their
    share of the GPU time) in one profiled forward on `inputs` (clones of a trial's).
    Run after timing: the profiler is slow to start and is kept away from
    the timed calls."""
    def call():
        with torch.no_grad():
            model(*inputs)
    return kernels.own_launches_and_share(kernels.profiled_kernels(call), names)


def run(channel, clock):
    saved = model = kept = None
    cmd = channel.receive()
    clock.lap("wait")  # in the pool, ahead of need
    nonce = cmd.pop("nonce")
    device = cmd["device"]
    if sandbox.enabled():
        sandbox.confine(cmd["candidate"], cmd["workdir"])
    clock.lap("confine")
    watch = kernels.KernelWatch(os.environ.get("TORCH_EXTENSIONS_DIR", cmd["workdir"]))
    watch.install()
    problem.reset_torch_state()  # strict fp32
    found = []  # the TritonLaunches of the candidate's namespace, once imported

    def own_launches():
        return watch.extension_calls + sum(triton.launches for triton in found)
    devices = []  # the reference's output device types, once its inputs came

    def check(output, checked_outputs=problem.checked_outputs):
        return checked_outputs(output, devices)
    try:
        # Made before any candidate code: its timing cannot be replaced
        # (timing.py). Failing here (e.g. the device out of memory) is the
        # evaluator's set-up failing, never the candidate's fault.
        harness = stage("setup", lambda: timing.Harness(device, launches=own_launches))
        guarded = stage("setup", guards.Guards)  # after our own patch of load_inline, before any candidate code

        def refuse(event, why):
            """Ends the process on the first event the audit hook refuses,
            its error record written before any more candidate code runs."""
            channel.send("error", nonce=nonce, stage="audit", message=f"{why} (audit event {event})", traceback="",
                         kind="exception")
            channel.close()
            os._exit(0)
        stage("setup", lambda: audit.install(refuse))
        clock.lap("harness")  # the kernel watch, the native harness, the guards and the audit hook
        module = stage("build", lambda: problem.load_module(cmd["candidate"], "kmem_candidate"))
        clock.lap("build")
        channel.send("built")
        go = channel.receive()  # sent once the reference has drawn the inputs
        clock.lap("inputs_wait")
        if go is None or go.get("cmd") != "inputs":
            raise StageError("protocol", RuntimeError("no inputs command"))
        saved = stage("inputs", lambda: transfer.load(go["path"], device))
        devices.extend(saved["output_devices"])
        # The warm-up and timed calls' sets go to the native harness only.
        stage("inputs", lambda: harness.load(device, saved.pop("calls"), devices))
        clock.lap("load_inputs")
        triton = stage("kernels", lambda: kernels.TritonLaunches(vars(module), watch.own_time))
        found.append(triton)
        own_names = watch.cuda_kernel_names | triton.names
        model = stage("init", lambda: problem.build_model(
            module.ModelNew, saved["init_inputs"], cmd["init_seed"], device, saved["init_on_device"] is True))
        clock.lap("init")
        threads_before = threading.active_count()
        watch.extension_calls = triton.launches = 0  # calls at import or in __init__ do not count
        kept = outputs.Outputs(saved.get("slots"))
        watch.extension_seconds = 0.0
        inputs_changed, trials_without_own, trials_seconds = stage(
            "forward", lambda: forward_trials(model, saved["trials"], device, kept, own_launches, check))
        extension_seconds = watch.extension_seconds
        # Launches of its own kernels during the trials: Triton launches are
        # counted as they happen; on the CPU, calls into its extensions; a
        # CUDA extension's kernels are seen by the profiler (after timing).
        # Every call (trials, warm-up, timed) must make one at least:
        # Triton launches and calls into its extensions are counted per call.
        launches = triton.launches + (watch.extension_calls if device != "cuda" else 0)
        if sandbox.enabled():
            sandbox.forbid_processes()  # its compilers (nvcc, ninja, ptxas) have run
        clock.lap("trials")
        spec = cmd["timing"]
        host = host_speed.HostSpeed(host_speed.probe_ms)
        measured = stage("timing", lambda: harness.measure_in_rounds(
            channel, clock, model, spec["warmup"], spec["iters"], host))
        harness.native.unload()
        clock.lap("timing")
        # The share of a forward's time in its own kernels and their time in
        # one forward: on CUDA by events around its launches (or the
        # profile's device times); on the CPU the time inside its extensions
        # over the trials.
        own_share = own_ms = None
        if device != "cuda" and trials_seconds > 0 and launches:
            own_share = min(1.0, extension_seconds / trials_seconds)
            own_ms = extension_seconds * 1e3 / len(saved["trials"])
        # Only CUDA extensions' kernels need the profile to be counted.
        needs_count = launches == 0 and bool(watch.cuda_kernel_names or triton.uncounted)
        if device == "cuda" and own_names and (launches or needs_count):
            own_ms, own_share = stage("forward", lambda: event_share(
                model, problem.clone_inputs(saved["trials"][-1]), watch.own_time))
            clock.lap("share")
            # A profile (seconds to start) only where it is needed: to see a
            # CUDA extension's kernels launch; its device times then give the
            # share too.
            if needs_count:
                profiled, profiled_ms, profiled_share = stage(
                    "forward", lambda: profiled_launches(model, problem.clone_inputs(saved["trials"][-1]), own_names))
                launches = profiled
                if profiled_share is not None:
                    own_ms, own_share = profiled_ms, profiled_share
                clock.lap("profile")
        delivered = stage("forward", lambda: kept.deliver(cmd["outputs"], device))
        observations = {
            "custom_kernel_launches": launches,
            "own_kernels": sorted(own_names),
            "same_storage_across_calls": measured.same_storage,
            "host_bound": measured.host_bound,
            "timing_steady": measured.steady,
            "threads_after_forward": threading.active_count() - threads_before,
            # Where the per-call count sees its launches at all (they may go
            # through paths only the profile sees, e.g. torch.ops).
            **({"calls_without_own_kernel": {"trials": trials_without_own, **measured.calls_without_own}}
               if trials_without_own < len(saved["trials"]) else {}),
            "timing_tally": {"calls": measured.calls, "measured_ms": measured.measured_ms,
                             "fastest_ms": measured.fastest_ms, "slowest_ms": measured.slowest_ms},
            **({"own_work_share": own_share, "own_work_ms": own_ms} if own_share is not None else {}),
            "forbidden_native_calls": watch.forbidden_calls,
            **guarded.facts(),
        }
        clock.lap("outputs")
        channel.send("result", nonce=nonce, candidate_ms=measured.ms, outputs=delivered,
                     inputs_changed=inputs_changed, observations=observations, seconds=clock.seconds)
    except StageError as error:
        # A built library calling a forbidden entry point: its own stage,
        # whatever the candidate's code made of the refusal.
        channel.send("error", nonce=nonce, stage="native" if watch.forbidden_calls else error.stage,
                     message=str(error), traceback=error.trace, kind=error.kind)
    channel.close()
    # Let go of the reference's shared input copies (CUDA IPC) so their memory
    # returns to the reference; os._exit runs no finalizers.
    saved = model = kept = None  # noqa: F841
    os._exit(0)  # skip atexit hooks and finalizers the candidate may have registered
