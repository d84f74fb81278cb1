#!/usr/bin/env python3
"""Writes a `kmem eval --jobs` file pairing each `kernel` item of a memory
store (default: data/seed/memory-store.json, 44 Triton kernels) with its
KernelBench problem file level<L>/<N>_<name>.py.

    scripts/seed_jobs.py --kernelbench /work/kb/KernelBench --out /tmp/seed-bench
    kmem eval --device cuda --parallel 8 --jobs /tmp/seed-bench/jobs.jsonl --out /tmp/seed-bench/results.jsonl

The candidates are written to OUT/candidates/<item id, ':' as '_'>.py; problem paths are
absolute. Exits 2 naming the item when a problem file is missing."""
import argparse
import glob
import json
import os
import sys

from scripted_experiment import add_store_options


def problem_file(kernelbench, problem_id, problem):
    level, number = problem["level"], problem["number"]
    for folder in (kernelbench, os.path.join(kernelbench, "KernelBench")):
        matches = glob.glob(os.path.join(folder, f"level{level}", f"{number}_*.py"))
        if len(matches) == 1:
            return os.path.abspath(matches[0])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_store_options(parser)
    parser.add_argument("--out", required=True, help="folder for jobs.jsonl and candidates/")
    args = parser.parse_args()

    with open(args.store) as f:
        store = json.load(f)
    os.makedirs(os.path.join(args.out, "candidates"), exist_ok=True)
    lines = []
    for item in store["items"]:
        if item["kind"] != "kernel":
            continue
        where = f"{args.store}: item {item['id']}"
        problem = store["problems"].get(item["source"])
        if problem is None:
            print(f"{where}: unknown problem {item['source']}", file=sys.stderr)
            return 2
        path = problem_file(args.kernelbench, item["source"], problem)
        if path is None:
            print(f"{where}: no level{problem['level']}/{problem['number']}_*.py under {args.kernelbench}",
                  file=sys.stderr)
            return 2
        candidate = os.path.join("candidates", item["id"].replace(":", "_") + ".py")
        with open(os.path.join(args.out, candidate), "w") as f:
            f.write(item["code"])
        lines.append(json.dumps({"id": item["id"], "problem": path, "candidate": candidate}))
    with open(os.path.join(args.out, "jobs.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} jobs in {os.path.join(args.out, 'jobs.jsonl')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
