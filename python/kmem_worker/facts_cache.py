"""The reference's measured facts (its time and the roofline floor), kept
per problem source, device, toolchain and timing settings, so a problem is
timed once per machine, as KernelBench keeps one baseline time per GPU. The
orchestrator names the folder and may ask for a fresh measurement; a time
measured while the host ran slow (timing.Measurement.steady) is stored but
read as unknown, so it is measured again (its roofline floor is reused).
The same folder keeps each machine's fastest probe of the host's speed
(host_speed.py) for a day, so that a short batch knows the host's usual
speed too. What is stored is as trustworthy as the folder: candidates run
as the same user (README). Writing is best-effort: a folder that cannot be
written costs the cache, not the evaluation (the reason goes to the log)."""
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


def _write_atomically(path, value):
    """Stores `value` as JSON at `path` (a reader never sees half a file);
    a failure is logged."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
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
    entries = _host_probe_entries(folder)
    known = _fresh_probe(entries, now)
    if known is not None and known <= ms:
        return
    entries[platform.node()] = {"ms": ms, "at": now}
    _write_atomically(os.path.join(folder, HOST_PROBE_FILE), entries)


class FactsCache:
    def __init__(self, folder, entry_key):
        self._path = os.path.join(folder, entry_key + ".json") if folder else None

    def read(self):
        """The stored facts that can be reused ({} if none): "reference_ms"
        when it was measured steady, "roofline_ms" whenever stored (it
        depends on the problem's sizes, not on the host's speed)."""
        facts = _read(self._path) if self._path is not None else None
        if not isinstance(facts, dict):
            return {}
        known = {}
        ms, floor = facts.get("reference_ms"), facts.get("roofline_ms")
        if isinstance(ms, (int, float)) and ms > 0 and facts.get("steady") is not False:
            known["reference_ms"] = ms
        if isinstance(floor, (int, float)) and floor >= 0:
            known["roofline_ms"] = floor
        return known

    def write(self, facts):
        """Stores `facts` atomically."""
        if self._path is not None:
            _write_atomically(self._path, facts)
