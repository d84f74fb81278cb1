"""Entry point: `python3 -m kmem_worker reference|candidate`."""
import sys

from .channel import Channel


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("reference", "candidate"):
        print("usage: python3 -m kmem_worker reference|candidate", file=sys.stderr)
        return 2
    # Take the pipes before any other code runs: later prints go to the log.
    channel = Channel.take_standard_streams()
    if sys.argv[1] == "reference":
        from . import reference
        return reference.serve(channel)
    from . import candidate
    return candidate.run(channel)


if __name__ == "__main__":
    sys.exit(main())
