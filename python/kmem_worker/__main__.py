"""Entry point: `python3 -m kmem_worker reference|candidate [cpu|cuda]`. With
a device, the worker sets itself up for it before it reads its first command
(see warmup.py)."""
import sys
import time

STARTED = time.monotonic()  # before torch is imported: the timeline counts the import

from .channel import Channel
from .stopwatch import Stopwatch


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in ("reference", "candidate"):
        print("usage: python3 -m kmem_worker reference|candidate [cpu|cuda]", file=sys.stderr)
        return 2
    # Take the pipes before any other code runs: later prints go to the log.
    channel = Channel.take_standard_streams()
    clock = Stopwatch(STARTED)
    if len(sys.argv) == 3:
        from . import warmup
        clock.lap("import")
        warmup.prepare(sys.argv[1], sys.argv[2])
        clock.lap("warmup")
    if sys.argv[1] == "reference":
        from . import reference
        clock.lap("import")
        return reference.serve(channel, clock)
    from . import candidate
    clock.lap("import")
    return candidate.run(channel, clock)


if __name__ == "__main__":
    sys.exit(main())
