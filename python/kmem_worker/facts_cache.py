"""The reference's measured facts (its time and the roofline floor), kept
per problem source, device, toolchain and timing settings, so a problem is
timed once per machine, as KernelBench keeps one baseline time per GPU. The
orchestrator names the folder and may ask for a fresh measurement."""
import hashlib
import json
import os
import sys

import torch

from . import timing

# Bump when the way the reference is measured changes: old entries then miss.
FORMAT = 1


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


class FactsCache:
    def __init__(self, folder, entry_key):
        self._path = os.path.join(folder, entry_key + ".json") if folder else None

    def read(self):
        """The stored facts, or None."""
        if self._path is None:
            return None
        try:
            with open(self._path) as stored:
                facts = json.load(stored)
        except (OSError, ValueError):
            return None
        ms = facts.get("reference_ms") if isinstance(facts, dict) else None
        return facts if isinstance(ms, (int, float)) and ms > 0 else None

    def write(self, facts):
        """Stores `facts` atomically (a reader never sees half a file)."""
        if self._path is None:
            return
        os.makedirs(os.path.dirname(self._path), exist_ok=True)
        temporary = f"{self._path}.{os.getpid()}"
        with open(temporary, "w") as stored:
            json.dump(facts, stored)
        os.replace(temporary, self._path)
