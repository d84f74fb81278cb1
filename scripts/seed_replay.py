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
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernelbench", required=True, help="KernelBench checkout (holds level1/ ...)")
    parser.add_argument("--out", required=True, help="folder for script.json and spec.json")
    parser.add_argument("--store", default=os.path.join(ROOT, "data", "seed", "memory-store.json"))
    parser.add_argument("--policies", default="none,show_all", help="comma-separated policies")
    parser.add_argument("--endpoint", default="http://127.0.0.1:8765/v1", help="where the script is served")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--eval-parallel", type=int, default=8)
    args = parser.parse_args()

    with open(args.store) as f:
        store = json.load(f)
    # The kernels a memory text may show (a store exported after learning also holds candidates and retired ones).
    kernels = [i for i in store["items"] if i["kind"] == "kernel" and i.get("state", "active") == "active"]
    replies = [{"when": f"KernelBench problem {k['source']},",
                "content": f"```python\n{k['code'].rstrip()}\n```\nACTION: SUBMIT\n"} for k in kernels]
    spec = {"format": "kmem-experiment/1", "name": "seed-replay", "kernelbench": os.path.abspath(args.kernelbench),
            "problems": sorted({k["source"] for k in kernels}),
            "readers": [{"id": "seed-replay", "endpoint": args.endpoint, "model": "scripted", "retries": 0}],
            "policies": args.policies.split(","), "samples": 1, "device": args.device, "max_turns": 1,
            "concurrency": args.concurrency, "eval_parallel": args.eval_parallel}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "script.json"), "w") as f:
        json.dump({"format": "kmem-scripted-endpoint/1", "mode": "turns", "replies": replies}, f, indent=1)
    with open(os.path.join(args.out, "spec.json"), "w") as f:
        json.dump(spec, f, indent=1)
    print(f"{len(replies)} kernels, {len(spec['problems'])} problems -> {args.out}/script.json, spec.json")


if __name__ == "__main__":
    main()
