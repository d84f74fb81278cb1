"""The reference's measured facts (its time and the roofline floor), kept
per problem source, device, toolchain and timing settings, so a problem is
timed once per machine, as KernelBench keeps one baseline time per GPU. The
orchestrator names the folder and may ask for a fresh measurement; a time
measured while the host ran slow (timing.Measurement.steady) is stored but
read as unknown, so it is measured again (its roofline floor is reused).
The same folder keeps each machine's fastest probe of the host's speed
(host_speed.py) for a day, so that a short batch knows the host's usual
speed too. What is stored is as trustworthy as the folder: candidates run
as the same user (README). Writers take the folder's lock and merge with
what is stored, so two batches sharing the folder keep the better facts
(a steady time over an unsteady one, a floor over none, the faster probe);
readers need no lock, since files are replaced whole. Writing is
best-effort: a folder that cannot be written costs the cache, not the
evaluation (the reason goes to the log)."""
import contextlib
import fcntl
import hashlib
import json
import os
import platform
import sys
import time

import torch

from . import timing

# Bump when the way the reference is measured changes: old entries then miss.
FORMAT = 2  # 2: references computed in strict fp32 (problem.strict_fp32)


def device_name(device):
    if device == "cuda":
        return torch.cuda.get_device_name()
    return f"cpu:{os.cpu_count()}"


def key(problem_path, device, spec):
    digest = hashlib.sha256()
    with open(problem_path, "rb") as source:
        digest.update(source.read())
    for part in (FORMAT, timing.METHOD, device_name(device), torch.__version__, str(torch.version.cuda),
                 sys.version, json.dumps(spec, sort_keys=True)):
        digest.update(b"\0" + str(part).encode())
    return digest.hexdigest()[:32]


HOST_PROBE_FILE = "host_probe.json"
HOST_PROBE_KEPT_S = 24 * 3600  # a machine's speed may change (a virtual machine moved): relearnt daily
HOST_PROBE_FLOOR_MS = 0.05  # faster than any CPU runs the probe's loop: no probe


LOCK_FILE = ".lock"


@contextlib.contextmanager
def _folder_lock(folder):
    """Holds `folder`'s write lock (created with the folder if need be)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, LOCK_FILE), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield  # closing the file releases the lock


def _update(path, change):
    """Replaces the JSON value at `path` by change(stored value or None),
    unless that returns None, under the folder's lock (a reader never sees
    half a file); a failure is logged."""
    try:
        with _folder_lock(os.path.dirname(path)):
            value = change(_read(path))
            if value is None:
                return
            temporary = f"{path}.{os.getpid()}"
            with open(temporary, "w") as stored:
                json.dump(value, stored)
            os.replace(temporary, path)
    except OSError as error:
        print(f"kmem facts cache: cannot write {path}: {error}", file=sys.stderr)


def _read(path):
    try:
        with open(path) as stored:
            return json.load(stored)
    except (OSError, ValueError):
        return None


def _host_probe_entries(folder):
    """machine name -> {"ms", "at"}, as stored in `folder` ({} if none)."""
    entries = _read(os.path.join(folder, HOST_PROBE_FILE))
    return entries if isinstance(entries, dict) else {}


def _fresh_probe(entries, now):
    """This machine's probe among `entries`, if plausible and under a day
    old at `now` (seconds since the epoch)."""
    entry = entries.get(platform.node())
    if not isinstance(entry, dict):
        return None
    ms, at = entry.get("ms"), entry.get("at")
    fresh = isinstance(at, (int, float)) and 0 <= now - at < HOST_PROBE_KEPT_S
    return ms if fresh and isinstance(ms, (int, float)) and ms >= HOST_PROBE_FLOOR_MS else None


def remembered_host_probe(folder, now=None):
    """This machine's fastest probe of the host's speed, if one was stored
    in `folder` within the last day; else None."""
    return _fresh_probe(_host_probe_entries(folder), now or time.time()) if folder else None


def remember_host_probe(folder, ms, now=None):
    """Stores `ms` as this machine's fastest probe when it is faster than
    the one stored, or that one is older than a day."""
    if not folder or not ms or ms < HOST_PROBE_FLOOR_MS:
        return
    now = now or time.time()

    def faster(entries):
        entries = entries if isinstance(entries, dict) else {}
        known = _fresh_probe(entries, now)
        if known is not None and known <= ms:
            return None
        return {**entries, platform.node(): {"ms": ms, "at": now}}

    _update(os.path.join(folder, HOST_PROBE_FILE), faster)


def _steady_time(facts):
    ms = facts.get("reference_ms")
    return ms if isinstance(ms, (int, float)) and ms > 0 and facts.get("steady") is not False else None


def _floor(facts):
    floor = facts.get("roofline_ms")
    return floor if isinstance(floor, (int, float)) and floor >= 0 else None


def _compile_facts(facts):
    """{"compile_ms"} or {"compile_failure"} as stored, else {}."""
    ms, failure = facts.get("compile_ms"), facts.get("compile_failure")
    if isinstance(ms, (int, float)) and ms > 0:
        return {"compile_ms": ms}
    return {"compile_failure": failure} if isinstance(failure, str) else {}


class FactsCache:
    def __init__(self, folder, entry_key):
        self._path = os.path.join(folder, entry_key + ".json") if folder else None

    def read(self):
        """The stored facts that can be reused ({} if none): "reference_ms"
        when it was measured steady, "roofline_ms" whenever stored (it
        depends on the problem's sizes, not on the host's speed), and the
        compile baseline: "compile_ms", or "compile_failure" (why there is
        none)."""
        facts = _read(self._path) if self._path is not None else None
        if not isinstance(facts, dict):
            return {}
        known = {"reference_ms": _steady_time(facts), "roofline_ms": _floor(facts), **_compile_facts(facts)}
        return {name: value for name, value in known.items() if value is not None}

    def write(self, facts, replace=False):
        """Stores `facts` ({"reference_ms" and "steady" when the reference
        was timed, "roofline_ms", and "compile_ms", "compile_failure" when
        the baseline was tried}) merged with the stored entry, which another
        batch or worker may have written since this one read it: what
        `facts` does not name stays, a steady stored time stays unless
        `facts` has a steady one too, a stored floor stays unless `facts`
        has one. With `replace` (a measurement asked for afresh) `facts` win
        whole."""
        if self._path is None:
            return

        def merged(stored):
            if replace or not isinstance(stored, dict):
                return facts
            result = {**stored, **facts}  # what `facts` does not name stays
            if facts.get("steady") is False and _steady_time(stored) is not None:
                result.update(reference_ms=stored["reference_ms"], steady=True)
            if _floor(facts) is None and _floor(stored) is not None:
                result["roofline_ms"] = stored["roofline_ms"]
            return result

        _update(self._path, merged)
