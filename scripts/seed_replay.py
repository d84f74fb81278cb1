#!/usr/bin/env python3
"""Writes an experiment that replays the seed kernels as single-turn SUBMIT
episodes: a kmem-scripted-endpoint/1 script answering each problem's task
with its `kernel` item (chosen by the task text's "KernelBench problem <id>,")
and a kmem-experiment/1 spec over those problems and the given policies.

    scripts/seed_replay.py --kernelbench /work/kb/KernelBench --out /tmp/replay
    build/kmem-scripted-endpoint /tmp/replay/script.json --port 8765 &
    kmem experiment run /tmp/replay/spec.json --results /tmp/replay/results.db
    kmem experiment report seed-replay --results /tmp/replay/results.db --html /tmp/replay/report.html

Every policy gets the same kernel, so the report measures the evaluator's
repeatability, not the memory (docs/experiments.md)."""
import argparse
import os

from scripted_experiment import (active_kernels, add_experiment_options, add_store_options, experiment_spec,
                                 write_json, write_script)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_store_options(parser)
    parser.add_argument("--out", required=True, help="folder for script.json and spec.json")
    parser.add_argument("--endpoint", default="http://127.0.0.1:8765/v1", help="where the script is served")
    parser.add_argument("--concurrency", type=int, default=16)
    add_experiment_options(parser)
    args = parser.parse_args()

    kernels = active_kernels(args.store)
    spec = experiment_spec("seed-replay", args, sorted({k["source"] for k in kernels}), "seed-replay", args.endpoint,
                           args.concurrency)
    os.makedirs(args.out, exist_ok=True)
    replies = write_script(os.path.join(args.out, "script.json"), kernels)
    write_json(os.path.join(args.out, "spec.json"), spec)
    print(f"{len(replies)} kernels, {len(spec['problems'])} problems -> {args.out}/script.json, spec.json")


if __name__ == "__main__":
    main()
