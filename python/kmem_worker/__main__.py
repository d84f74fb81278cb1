"""Entry point: `python3 -m kmem_worker reference|candidate [cpu|cuda]` runs
one worker; `python3 -m kmem_worker zygote reference|candidate cpu|cuda`
imports once and forks such workers on request (zygote.py);
`python3 -m kmem_worker harness` builds kmem's native harness if it is not
built yet and prints its path (native_harness.py); `python3 -m kmem_worker
device` says by its exit status whether a CUDA device is usable
(torch_install.py). With a device,
a worker sets itself up for it before it reads its first command (see
warmup.py)."""
import sys
import time

STARTED = time.monotonic()  # before torch is imported: the timeline counts the import

ROLES = ("reference", "candidate")
DEVICES = ("cpu", "cuda")
USAGE = "usage: python3 -m kmem_worker reference|candidate [cpu|cuda]\n" \
        "       python3 -m kmem_worker zygote reference|candidate cpu|cuda\n" \
        "       python3 -m kmem_worker harness\n" \
        "       python3 -m kmem_worker device"


def run_worker(role, device, started, baton=None):
    """Serves the orchestrator on stdin/stdout as a worker of `role` (device
    None: set up nothing ahead; `baton`: the descriptors that order its CUDA
    context's creation among the others', see warmup.py); returns the exit code."""
    from .channel import Channel
    from .stopwatch import Stopwatch
    # Take the pipes before any other code runs: later prints go to the log.
    channel = Channel.take_standard_streams(role)
    clock = Stopwatch(started)
    if device is not None:
        from . import warmup
        clock.lap("import")
        with warmup.ContextBaton(baton or {}):
            clock.lap("context_wait")
            warmup.create_context(device)
            clock.lap("context")
        warmup.prepare(role, device)
        clock.lap("warmup")
    if role == "reference":
        from . import reference
        clock.lap("import")
        return reference.serve(channel, clock)
    from . import candidate
    clock.lap("import")
    return candidate.run(channel, clock)


def main(args):
    if args == ["harness"]:
        from . import native_harness
        return native_harness.main()
    if args == ["device"]:
        from . import torch_install
        return torch_install.main()
    if len(args) == 3 and args[0] == "zygote" and args[1] in ROLES and args[2] in DEVICES:
        from . import zygote
        return zygote.serve(args[1], args[2], run_worker)
    if len(args) in (1, 2) and args[0] in ROLES and (len(args) == 1 or args[1] in DEVICES):
        return run_worker(args[0], args[1] if len(args) == 2 else None, STARTED)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
