"""The untrusted candidate role: imports the candidate (its extensions built
through the intercepted load_inline), builds ModelNew, runs the correctness
trials on clones of the reference's inputs, times it under the orchestrator's
timing lock and hands its outputs to the reference to judge (outputs.py).
Reports facts (observations, runtime guards among them: guards.py) only; the
last record it writes carries the nonce."""
import os
import threading
import traceback

import torch

from . import compare, guards, host_speed, kernels, outputs, problem, sandbox, timing, transfer


DEVICE_FAULTS = ("CUDA error", "illegal memory access", "misaligned address", "unspecified launch failure")


class StageError(Exception):
    def __init__(self, stage, error):
        super().__init__(f"{type(error).__name__}: {error}")
        self.stage = stage
        self.trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        # A sticky device error (illegal memory access, ...) leaves the CUDA
        # context unusable: the process is as good as crashed.
        self.device_fault = any(fault in str(error) for fault in DEVICE_FAULTS)


def stage(name, call):
    try:
        return call()
    except Exception as error:
        raise StageError(name, error) from error


def forward_trials(model, trial_inputs, device, kept):
    """Runs every correctness trial on clones, keeping the outputs in `kept`.
    Returns whether each trial changed its inputs, and the output types."""
    inputs_changed, types = [], set()
    for i, inputs in enumerate(trial_inputs):
        clones = problem.clone_inputs(inputs)
        with torch.no_grad():
            result = model(*clones)
        problem.synchronize(device)
        values = problem.as_output_list(result)
        types |= {f"{type(v).__module__}.{type(v).__qualname__}" for v in values}
        kept.keep("trials", i, values)
        inputs_changed.append(not compare.same_inputs(inputs, clones))
    return inputs_changed, sorted(types)


def keep_timed_outputs(kept, measured, sets):
    """Keeps the output of the last timed call on each of the `sets` timing sets."""
    for i in range(sets):
        kept.keep("timed", i, problem.as_output_list(measured.outputs[i]))


def profiled_launches(model, inputs, names):
    """Launches of kernels called `names` in one profiled forward on clones.
    Run after timing: the profiler is slow to start and is kept away from
    the timed calls."""
    clones = problem.clone_inputs(inputs)

    def call():
        with torch.no_grad():
            model(*clones)
    return kernels.count_own_launches(kernels.profiled_kernel_names(call), names)


def run(channel, clock):
    saved = model = kept = None
    cmd = channel.receive()
    clock.lap("wait")  # in the pool, ahead of need
    nonce = cmd.pop("nonce")
    device = cmd["device"]
    if sandbox.enabled():
        sandbox.confine(cmd["candidate"], cmd["workdir"])
    watch = kernels.KernelWatch(os.environ.get("TORCH_EXTENSIONS_DIR", cmd["workdir"]))
    watch.install()
    problem.strict_fp32()
    guarded = guards.Guards()  # after our own patch of load_inline, before any candidate code
    try:
        module = stage("build", lambda: problem.load_module(cmd["candidate"], "kmem_candidate"))
        clock.lap("build")
        channel.send("built")
        go = channel.receive()  # sent once the reference has drawn the inputs
        clock.lap("inputs_wait")
        if go is None or go.get("cmd") != "inputs":
            raise StageError("protocol", RuntimeError("no inputs command"))
        saved = stage("inputs", lambda: transfer.load(go["path"], device))
        clock.lap("load_inputs")
        triton = stage("kernels", lambda: kernels.TritonLaunches(vars(module)))
        own_names = watch.cuda_kernel_names | triton.names
        model = stage("init", lambda: problem.build_model(
            module.ModelNew, saved["init_inputs"], cmd["init_seed"], device, saved["init_on_device"] is True))
        clock.lap("init")
        threads_before = threading.active_count()
        watch.extension_calls = triton.launches = 0  # calls at import or in __init__ do not count
        kept = outputs.Outputs(saved.get("slots"))
        inputs_changed, types = stage("forward", lambda: forward_trials(model, saved["trials"], device, kept))
        # Launches of its own kernels during the trials: Triton launches are
        # counted as they happen; on the CPU, calls into its extensions; a
        # CUDA extension's kernels are seen by the profiler (after timing).
        launches = triton.launches + (watch.extension_calls if device != "cuda" else 0)
        if sandbox.enabled():
            sandbox.forbid_processes()  # its compilers (nvcc, ninja, ptxas) have run
        clock.lap("trials")
        spec = cmd["timing"]
        host = host_speed.HostSpeed(host_speed.probe_ms)
        measured = stage("timing", lambda: timing.measure_in_turns(
            channel, clock, model, saved["timing"], spec["warmup"], spec["iters"], device, host))
        stage("timing", lambda: keep_timed_outputs(kept, measured, len(saved["timing"])))
        clock.lap("timing")
        if launches == 0 and device == "cuda" and (watch.cuda_kernel_names or triton.uncounted):
            launches = stage("forward", lambda: profiled_launches(model, saved["trials"][0], own_names))
            clock.lap("profile")
        delivered = stage("forward", lambda: kept.deliver(cmd["outputs"], device))
        observations = {
            "custom_kernel_launches": launches,
            "own_kernels": sorted(own_names),
            "output_types": types,
            "same_storage_across_calls": measured.same_storage,
            "host_bound": measured.host_bound,
            "timing_steady": measured.steady,
            "threads_after_forward": threading.active_count() - threads_before,
            **guarded.facts(),
        }
        clock.lap("outputs")
        channel.send("result", nonce=nonce, candidate_ms=measured.ms, outputs=delivered,
                     inputs_changed=inputs_changed, observations=observations, seconds=clock.seconds)
    except StageError as error:
        channel.send("error", nonce=nonce, stage=error.stage, message=str(error), traceback=error.trace,
                     device_fault=error.device_fault)
    channel.close()
    # Let go of the reference's shared input copies (CUDA IPC) so their memory
    # returns to the reference; os._exit runs no finalizers.
    saved = model = kept = None  # noqa: F841
    os._exit(0)  # skip atexit hooks and finalizers the candidate may have registered
