"""How fast the host runs Python at the moment. On a virtual machine a CPU
can run at about half its usual speed for a second or more at a time (the
host's doing: a loop of Python alone ran 1.5 ms or 3 ms, docs/benchmarks.md),
and a model bound by the host (a Python loop launching
small kernels, any model on the CPU) is then timed as that much slower. A
short fixed loop timed between windows of timed calls tells the windows run
at the host's usual speed from the others: timing.measure keeps the former.

The usual speed is the fastest probe seen: this process's own, and the
fastest the orchestrator has from the reference workers (trusted), passed on
with the timing lock's grant."""
import time

PROBE_STEPS = 4000  # about 0.3 ms of Python at the usual speed
# A probe this much slower than the fastest seen: the host is slowed down
# (the slow state measured 1.7-2x; a steady host's probes vary by ~10%).
STEADY_RATIO = 1.25


def probe_ms():
    """Milliseconds a fixed loop of dictionary updates takes now."""
    begin = time.perf_counter()
    counts = {}
    for step in range(PROBE_STEPS):
        counts[step & 63] = counts.get(step & 63, 0) + step
    return (time.perf_counter() - begin) * 1e3


class HostSpeed:
    def __init__(self, probe):
        self._probe = probe  # probe_ms; tests fake it
        self.fastest_ms = None  # the fastest probe seen or learnt

    def learn(self, fastest_ms):
        """Takes in a probe seen elsewhere on this machine (None: none)."""
        if isinstance(fastest_ms, (int, float)) and fastest_ms > 0:
            self.fastest_ms = fastest_ms if self.fastest_ms is None else min(self.fastest_ms, fastest_ms)

    def sample(self):
        """A probe now (learnt as well)."""
        ms = self._probe()
        self.learn(ms)
        return ms

    def steady(self, *probes):
        """Whether every probe in `probes` ran at about the usual speed."""
        return all(ms <= self.fastest_ms * STEADY_RATIO for ms in probes)
