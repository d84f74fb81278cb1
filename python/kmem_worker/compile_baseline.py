"""The torch.compile baseline (docs/evaluator.md, "Baselines"): the
reference compiled in torch.compile's default mode and timed on the same
device and by the same harness as the eager reference, as KernelBench's
leaderboards report a speedup over both. Compiling can fail (no
torch.compile before torch 2.0, no C++ compiler for the CPU's backend, an
operator the compiler cannot follow) or take minutes, so it runs under a
time limit, and any failure is "no compile baseline" (a reason in the
log), never an error of the reference."""
import contextlib
import signal
import sys
import threading

import torch

# Seconds the first compiled call (which compiles) may take.
TIME_LIMIT_S = 300.0


class CompileTimeout(Exception):
    pass


def compiled(model):
    """`model` under torch.compile's default mode; raises RuntimeError where
    this torch has no torch.compile."""
    compile_model = getattr(torch, "compile", None)
    if compile_model is None:
        raise RuntimeError(f"torch {torch.__version__} has no torch.compile")
    return compile_model(model)


@contextlib.contextmanager
def time_limit(seconds):
    """Raises CompileTimeout in the block once `seconds` have passed (by
    SIGALRM, so only on the main thread; elsewhere the block runs unbounded
    and the orchestrator's limit on the whole preparation holds)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise CompileTimeout(f"compiling took more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def measure(model, inputs, timed, time_limit_s=TIME_LIMIT_S, compile_model=compiled):
    """(milliseconds, None) of the compiled `model` as timed(compiled model)
    measures it, once one call on `inputs` compiled it within time_limit_s;
    (None, reason) when compiling or timing fails."""
    try:
        fast = compile_model(model)
        with time_limit(time_limit_s), torch.no_grad():
            fast(*inputs)
        ms = timed(fast)
    except Exception as error:  # whatever the compiler raises: no baseline, never a failed reference
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        print(f"kmem compile baseline: none: {reason}", file=sys.stderr)
        return None, reason
    return ms, None
