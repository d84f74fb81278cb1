#!/usr/bin/env python3
"""Runs scripts/learning_run.py end to end on the CPU, as bench/gpu_checks.sh's
learning step runs it on a GPU, over the tiny KernelBench folder and store
beside this file (kb/, store.json: three activation problems, each with an
honest C++ kernel): the store's kernels are retired, learned again in
experiment learn-first, ingested, re-verified and promoted, and shown in
learn-second. The script must exit 0, and its summary.json must name the
learned kernels (new items, not the retired ones), the promoted ones (active
in its memory.db, their speedups measured on the cpu) and at least one
promoted kernel that learn-second's memory texts showed.

  learning_run_test.py ROOT BUILD CACHE   # exit 1 naming what disagrees

CACHE is the evaluator's cache (shared with the other CPU tests, so each
kernel's C++ build is made once per build folder). Run it alone (CTest
RUN_SERIAL): a kernel is promoted only once two measurements of its CPU
speedup agree within 1.5x, and other tests' load makes them disagree.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

from harness import KERNELBENCH, STORE, command_line, finish, run, store_kernels


def main():
    root, build, env = command_line(__doc__)
    kmem = build / "kmem"
    kernels = store_kernels()
    seed_kernels = sorted(i["id"] for i in kernels)
    problems = sorted(i["source"] for i in kernels)
    failures = []
    with tempfile.TemporaryDirectory(prefix="kmem-learning-run-") as scratch:
        out = pathlib.Path(scratch) / "learning"
        run([sys.executable, root / "scripts" / "learning_run.py", "--kmem", kmem, "--endpoint",
             build / "kmem-scripted-endpoint", "--kernelbench", KERNELBENCH, "--out", out, "--store", STORE,
             "--problems", str(len(problems)), "--device", "cpu", "--port", "0",
             "--eval-parallel", "2"],  # (its default, 8, is for a GPU host; CI has 2 cores)
            env, timeout=1200, show_output=True)
        summary = json.loads((out / "summary.json").read_text())
        learned, promoted, shown = summary["candidates"], summary["promoted"], summary["learned_items_shown_in_second"]
        if summary["problems"] != problems or sorted(summary["retired_seed_kernels"]) != seed_kernels:
            failures.append(f"summary: problems {summary['problems']}, retired {summary['retired_seed_kernels']}; "
                            f"expected {problems}, {seed_kernels}")
        if not learned or set(learned) & set(seed_kernels):
            failures.append(f"learned kernels {learned}: none, or a retired store kernel came back")
        if not promoted or not set(promoted) <= set(learned):
            failures.append(f"promoted {promoted}: none, or not among the learned {learned}")
        if not shown or not set(shown) <= set(promoted):
            failures.append(f"shown in learn-second {shown}: none, or not among the promoted {promoted}")
        active = subprocess.run([str(kmem), "items", "list", "--store", str(out / "memory.db"), "--state", "active",
                                 "--kind", "kernel", "--json"], env=env, capture_output=True, text=True)
        items = {i["id"]: i for i in json.loads(active.stdout or "[]")}
        for item in promoted:  # (kmem promotes a kernel only once reproduced; a later reverify may differ)
            if items.get(item, {}).get("confidence", {}).get("device") != "cpu":
                failures.append(f"{item}: not active with its speedup measured on the cpu: {items.get(item)}")
        if not (out / "learn-second.html").is_file():
            failures.append("no learn-second.html")
    return finish(failures)


if __name__ == "__main__":
    sys.exit(main())
