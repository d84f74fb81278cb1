"""The worker's private JSON-lines channel to the orchestrator.

At start-up the worker moves the orchestrator's pipes (stdin, stdout) to
private descriptors and points fd 0 at /dev/null and fd 1 at the log (stderr),
so whatever problem or candidate code prints lands in the log, never on the
channel. Every command received and every event sent is checked against the
protocol (protocol.py, data/protocol/worker.json) for the worker's role."""
import json
import os
import sys

from . import protocol


class Channel:
    def __init__(self, commands, events, role, rules=None, dumps=json.dumps):
        self._commands = commands
        self._events = events
        self._role = role
        self._rules = rules or protocol.load()
        self._dumps = dumps  # taken before any candidate code: json.dumps replaced later writes nothing here
        self._cpus_before = None  # the affinity to restore after timing

    @classmethod
    def take_standard_streams(cls, role):
        commands = os.fdopen(os.dup(0), "r", encoding="utf-8")
        events = os.fdopen(os.dup(1), "w", encoding="utf-8")
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        return cls(commands, events, role)

    def receive(self):
        """The next command, or None at end of input."""
        line = self._commands.readline()
        if not line:
            return None
        command = json.loads(line)
        self._rules.check_command(self._role, command)
        return command

    def send(self, event, **fields):
        record = {"event": event, **fields}
        self._rules.check_event(self._role, record)
        self._events.write(self._dumps(record) + "\n")
        self._events.flush()

    def acquire_timing_lock(self):
        """Asks the orchestrator for the (GPU) timing lock and waits for it;
        returns the fastest probe of the host's speed the orchestrator knows
        (host_speed.py; None: none yet). While the lock is held this thread
        may also run on the CPU the grant keeps for timed calls, if any. It
        is not pinned there: on a virtual machine one CPU can slow down for
        seconds (the host's doing), and a pinned thread cannot move away; a
        launch-bound model timed pinned to one CPU took 10-21 ms from one
        process to the next, unpinned 9.7-12 ms (docs/benchmarks.md)."""
        self.send("time_request")
        granted = self.receive()
        if granted is None or granted.get("cmd") != "time":
            raise RuntimeError("orchestrator did not grant the timing lock")
        cpu = granted.get("cpu", -1)
        if isinstance(cpu, int) and cpu >= 0 and hasattr(os, "sched_setaffinity"):
            self._cpus_before = os.sched_getaffinity(0)
            try:
                os.sched_setaffinity(0, self._cpus_before | {cpu})
            except OSError as error:  # timed where it ran so far
                print(f"kmem: timing CPU {cpu} refused: {error}", file=sys.stderr)
                self._cpus_before = None
        return granted.get("host_probe_ms")

    def release_timing_lock(self):
        if self._cpus_before:
            os.sched_setaffinity(0, self._cpus_before)
            self._cpus_before = None
        self.send("timed")

    def close(self):
        self._events.close()
        self._commands.close()
