"""What the scripts that replay a store's kernels share (seed_replay.py and
learning_run.py; seed_jobs.py its options): the options naming KernelBench,
the store and how the experiments run; the store's active kernels; the
kmem-scripted-endpoint/1 script answering each problem with its kernel; and a
kmem-experiment/1 spec read by that script."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_store_options(parser):
    """--kernelbench and --store: where the problems and the kernels are."""
    parser.add_argument("--kernelbench", required=True, help="KernelBench checkout (holds level1/ ...)")
    parser.add_argument("--store", default=os.path.join(ROOT, "data", "seed", "memory-store.json"))


def add_experiment_options(parser):
    """--policies, --device and --eval-parallel: how the experiments run."""
    parser.add_argument("--policies", default="none,show_all", help="comma-separated policies")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--eval-parallel", type=int, default=8)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


def active_kernels(store_path):
    """The store's kernels a memory text may show (a store exported after learning also holds candidates
    and retired ones)."""
    with open(store_path) as f:
        store = json.load(f)
    return [i for i in store["items"] if i["kind"] == "kernel" and i.get("state", "active") == "active"]


def write_script(path, kernels):
    """Writes the script answering each problem's task (chosen by its "KernelBench problem <id>,") with
    its kernel, a single SUBMIT; returns its replies."""
    replies = [{"when": f"KernelBench problem {k['source']},",
                "content": f"```python\n{k['code'].rstrip()}\n```\nACTION: SUBMIT\n"} for k in kernels]
    write_json(path, {"format": "kmem-scripted-endpoint/1", "mode": "turns", "replies": replies})
    return replies


def experiment_spec(name, args, problems, reader, endpoint, concurrency):
    """The experiment `name`: `problems` under args.policies on args.device, one turn and one sample
    each, read by `reader`, the scripted endpoint at `endpoint`."""
    return {"format": "kmem-experiment/1", "name": name, "kernelbench": os.path.abspath(args.kernelbench),
            "problems": problems,
            "readers": [{"id": reader, "endpoint": endpoint, "model": "scripted", "retries": 0}],
            "policies": args.policies.split(","), "samples": 1, "device": args.device, "max_turns": 1,
            "concurrency": concurrency, "eval_parallel": args.eval_parallel}
