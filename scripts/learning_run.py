#!/usr/bin/env python3
"""Learns in one experiment and renders what it learned in a second, with the
scripted endpoint as the agent (docs/learning.md, "Learning across
experiments"):

 1. a database of the seed memory in which the `kernel` items of the first
    N problems that have one are retired (so what comes back is learned);
 2. experiment `learn-first`: those problems under the given policies, the
    agent answering each with the seed's kernel for it (a single SUBMIT);
 3. `kmem ingest learn-first`: the passing kernels enter as candidates;
    `kmem reverify` measures them again with the references re-timed, so
    they are reproduced; `kmem items promote` makes them active (those
    whose measurements disagree are measured a third time first);
 4. experiment `learn-second`: the same problems and policies on the
    changed memory; `kmem items value learn-second` says which learned
    items its memory texts showed, and how each did.

    scripts/learning_run.py --kmem build/kmem --endpoint build/kmem-scripted-endpoint \\
        --kernelbench KernelBench --out /tmp/learn --problems 20 --device cuda

Prints each step's wall time and writes summary.json in --out; exits 1 when
no learned item was shown in the second experiment."""
import argparse
import json
import os
import subprocess
import sys
import time

from scripted_experiment import (ROOT, active_kernels, add_experiment_options, add_store_options, experiment_spec,
                                 write_json, write_script)


def run(args, refusals=False):
    """Runs a kmem command, echoing it; returns its stdout. Exits on failure,
    unless `refusals`: then returns None where kmem refused (its line printed)."""
    print("$ " + " ".join(args), flush=True)
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        if refusals:
            print(done.stderr.strip(), flush=True)
            return None
        sys.exit(f"{args[0]} {args[1]}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kmem", default=os.path.join(ROOT, "build", "kmem"))
    parser.add_argument("--endpoint", default=os.path.join(ROOT, "build", "kmem-scripted-endpoint"),
                        help="the kmem-scripted-endpoint program")
    add_store_options(parser)
    parser.add_argument("--out", required=True)
    parser.add_argument("--problems", type=int, default=20, help="how many problems (the first with a seed kernel)")
    parser.add_argument("--port", type=int, default=8766, help="the scripted endpoint's port (0: any free one)")
    add_experiment_options(parser)
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    kmem = os.path.abspath(args.kmem)
    db = os.path.join(args.out, "memory.db")
    results = os.path.join(args.out, "results.db")
    for path in (db, results):
        if os.path.exists(path):
            os.remove(path)
    kernels = sorted(active_kernels(args.store), key=lambda i: i["source"])
    chosen = sorted({k["source"] for k in kernels})[:args.problems]
    kernels = [k for k in kernels if k["source"] in chosen]
    timings = {}

    def step(name, call):
        """Runs one step's kmem command, printing what it printed (what ingest admitted and left out,
        each kernel's re-measured speedup) and its wall time."""
        began = time.monotonic()
        value = call()
        timings[name] = round(time.monotonic() - began, 1)
        print(value.rstrip(), flush=True)
        print(f"== {name}: {timings[name]} s", flush=True)
        return value

    run([kmem, "import", args.store, "--store", db])
    for k in kernels:
        run([kmem, "items", "retire", k["id"], "--reason", "learned again by learning_run.py", "--store", db])
    write_script(os.path.join(args.out, "script.json"), kernels)
    endpoint = subprocess.Popen([args.endpoint, os.path.join(args.out, "script.json"), "--port", str(args.port)],
                                stdout=subprocess.PIPE, text=True)
    try:
        # It prints its base URL once it listens (so --port 0 works and no fixed wait is needed).
        base_url = endpoint.stdout.readline().strip()
        if not base_url:
            sys.exit(f"{args.endpoint}: exit {endpoint.wait()} before it printed its URL")
        for name in ("learn-first", "learn-second"):
            write_json(os.path.join(args.out, name + ".json"),
                       experiment_spec(name, args, chosen, "learner", base_url, concurrency=16))
        experiment = [kmem, "experiment", "run", "--results", results, "--store", db, "--quiet",
                      "--work-dir", os.path.join(args.out, "work")]
        step("learn-first", lambda: run(experiment + [os.path.join(args.out, "learn-first.json")]))
        step("ingest", lambda: run([kmem, "ingest", "learn-first", "--store", db, "--results", results,
                                      "--device", args.device]))
        reverify = [kmem, "reverify", "--store", db, "--kernelbench", args.kernelbench, "--kind", "kernel",
                    "--device", args.device, "--parallel", str(args.eval_parallel)]
        step("reverify", lambda: run(reverify))
        candidates = json.loads(run([kmem, "items", "list", "--store", db, "--state", "candidate", "--kind",
                                     "kernel", "--json"]))

        def promote_all(ids):
            """Promotes each item; returns those kmem refused (not reproduced yet)."""
            return [i for i in ids if run([kmem, "items", "promote", i, "--reason", "reproduced by reverify",
                                           "--store", db], refusals=True) is None]

        waiting = promote_all([item["id"] for item in candidates])
        if waiting:  # a third measurement for those whose two disagreed
            step("reverify again", lambda: run(reverify))
            waiting = promote_all(waiting)
        promoted = [item["id"] for item in candidates if item["id"] not in waiting]
        step("learn-second", lambda: run(experiment + [os.path.join(args.out, "learn-second.json")]))
    finally:
        endpoint.terminate()
        endpoint.wait()
    values = json.loads(run([kmem, "items", "value", "learn-second", "--results", results, "--store", db,
                             "--json"]))
    rows = values if isinstance(values, list) else values.get("items", [])
    shown = sorted({row["item"] for row in rows if row.get("item") in promoted})
    summary = {"problems": chosen, "retired_seed_kernels": [k["id"] for k in kernels],
               "candidates": [i["id"] for i in candidates], "promoted": promoted,
               "learned_items_shown_in_second": shown, "seconds": timings}
    write_json(os.path.join(args.out, "summary.json"), summary)
    # The summary stands without the report: a machine without the bundled
    # plotting library (a GPU machine without Debian's packages) refuses the
    # HTML; `kmem experiment report` on the results database makes it elsewhere.
    report = run([kmem, "experiment", "report", "learn-second", "--results", results,
                  "--html", os.path.join(args.out, "learn-second.html")], refusals=True)
    if report is not None:
        print(report)
    print(f"{len(chosen)} problems: {len(candidates)} kernels learned, {len(promoted)} promoted, "
          f"{len(shown)} shown in learn-second; seconds {timings}")
    return 0 if shown else 1


if __name__ == "__main__":
    sys.exit(main())
