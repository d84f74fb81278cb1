"""Starts a real `kmem serve` for the tests: a tokens file (one read, one
write token), an audit log, a copy of the seed memory in a database, and
the options of the evaluator tests (small trial counts, their build cache).

Needs the environment variables KMEM_BINARY (the kmem program),
KMEM_SCRIPTED_ENDPOINT (kmem-scripted-endpoint), KMEM_SOURCE_DIR (the
repository) and KMEM_EVAL_TEST_CACHE (the evaluator tests' cache), which
the ctest registration sets."""
from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
from typing import List, Optional

SOURCE = pathlib.Path(os.environ.get("KMEM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(SOURCE / "python" / "kmem_client" / "src"))

KMEM = os.environ.get("KMEM_BINARY", str(SOURCE / "build" / "kmem"))
SCRIPTED_ENDPOINT = os.environ.get("KMEM_SCRIPTED_ENDPOINT", str(SOURCE / "build" / "kmem-scripted-endpoint"))
CACHE = os.environ.get("KMEM_EVAL_TEST_CACHE", str(SOURCE / "build" / "eval-test-cache"))
READ_SECRET = "read-secret-for-the-tests-0001"
WRITE_SECRET = "write-secret-for-the-tests-0002"
BODY_LIMIT = 65536


class Served:
    """One `kmem serve` on a free loopback port, stopped by stop()."""

    def __init__(self, kernelbench: str, extra: Optional[List[str]] = None) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="kmem-serve-test-")
        d = pathlib.Path(self.dir.name)
        self.tokens = d / "tokens.json"
        self.tokens.write_text(json.dumps({"format": "kmem-serve-tokens/1", "tokens": [
            {"name": "reader-token", "access": "read", "secret": READ_SECRET},
            {"name": "writer-token", "access": "write", "secret": WRITE_SECRET}]}))
        self.tokens.chmod(0o600)
        self.audit = d / "audit.jsonl"
        self.db = d / "kmem.db"
        subprocess.run([KMEM, "import", str(SOURCE / "data/seed/memory-store.json"), "--db", str(self.db)],
                       check=True, capture_output=True)
        args = [KMEM, "serve", "--port", "0", "--tokens", str(self.tokens), "--audit-log", str(self.audit),
                "--store", str(self.db), "--kernelbench", kernelbench, "--max-body-bytes", str(BODY_LIMIT),
                "--read-timeout", "1", "--threads", "8", "--device", "cpu", "--trials", "3", "--iters", "5",
                "--warmup", "1", "--cache-dir", CACHE, "--work-dir", str(d / "work")] + (extra or [])
        self.process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"kmem serve did not start: {line}{self.process.stderr.read()}")
        self.url = found.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        if self.process.stderr:
            self.process.stderr.close()
        self.dir.cleanup()
