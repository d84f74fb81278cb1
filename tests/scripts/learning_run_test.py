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
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, build, cache = (pathlib.Path(p).resolve() for p in sys.argv[1:])
    env = dict(os.environ, KMEM_CACHE_DIR=str(cache))
    kmem = build / "kmem"
    store = json.loads((HERE / "store.json").read_text())
    seed_kernels = sorted(i["id"] for i in store["items"] if i["kind"] == "kernel")
    problems = sorted(i["source"] for i in store["items"] if i["kind"] == "kernel")
    failures = []
    with tempfile.TemporaryDirectory(prefix="kmem-learning-run-") as scratch:
        out = pathlib.Path(scratch) / "learning"
        args = [sys.executable, root / "scripts" / "learning_run.py", "--kmem", kmem, "--endpoint",
                build / "kmem-scripted-endpoint", "--kernelbench", HERE / "kb", "--out", out, "--store",
                HERE / "store.json", "--problems", str(len(problems)), "--device", "cpu", "--port", "0",
                "--eval-parallel", "2"]  # (its default, 8, is for a GPU host; CI has 2 cores)
        print("$ " + " ".join(map(str, args)), flush=True)
        done = subprocess.run(list(map(str, args)), env=env, capture_output=True, text=True, timeout=1200)
        print(done.stdout + done.stderr)
        if done.returncode != 0:
            sys.exit(f"learning_run.py exited {done.returncode}")
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
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
