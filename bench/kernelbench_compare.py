#!/usr/bin/env python3
"""Times each job of a kmem jobs file the way KernelBench's own evaluator
does, to compare its speedups with kmem's (docs/benchmarks.md, "KernelBench's
timing"): kernelbench/timing.py's time_execution_with_cuda_event (3 warm-up
calls, the L2 thrashed before each trial, CUDA events, 100 trials, their
mean), reference and candidate on the same inputs, one process per job, six
at once, the timing itself serialised by a file lock.

  bench/kernelbench_compare.py JOBS.jsonl KERNELBENCH/src/kernelbench/timing.py > kb.jsonl

Prints one JSON line per job: {"id", "kb_speedup", "ref_ms", "new_ms"} or
{"id", "error"}. Needs a CUDA device; the candidates run unsandboxed (honest
seed kernels only)."""
import argparse
import contextlib
import fcntl
import importlib.util
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

PROCESSES = 6
TRIALS = 100
SEED = 42


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def time_one(problem, candidate, timing_py):
    """{"ref_ms", "new_ms", "kb_speedup"} of one job, in this process."""
    import numpy as np
    import torch

    timing = load(timing_py, "kb_timing")

    def seed():
        torch.manual_seed(SEED)
        torch.cuda.manual_seed(SEED)
        random.seed(SEED)
        np.random.seed(SEED)

    def on_device(values):
        return [v.cuda() if isinstance(v, torch.Tensor) else v for v in values]

    reference, new = load(problem, "kb_problem"), load(candidate, "kb_candidate")
    seed()
    init = on_device(reference.get_init_inputs())
    with torch.no_grad():
        seed()
        model = reference.Model(*init).cuda()
        seed()
        model_new = new.ModelNew(*init).cuda()
        seed()
        inputs = on_device(reference.get_inputs())
        device = torch.device("cuda:0")
        with open(os.environ.get("KB_LOCK", "/tmp/kb_compare.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            new_ms = timing.time_execution_with_cuda_event(model_new, inputs, num_trials=TRIALS, verbose=False,
                                                           device=device)
            ref_ms = timing.time_execution_with_cuda_event(model, inputs, num_trials=TRIALS, verbose=False,
                                                           device=device)
    ref, fast = float(np.mean(ref_ms)), float(np.mean(new_ms))
    return {"ref_ms": ref, "new_ms": fast, "kb_speedup": ref / fast}


def time_job(line, base, timing_py):
    job = json.loads(line)
    candidate = job["candidate"] if os.path.isabs(job["candidate"]) else os.path.join(base, job["candidate"])
    run = subprocess.run([sys.executable, __file__, "--one", job["problem"], candidate, timing_py],
                         capture_output=True, text=True, timeout=600)
    try:
        result = json.loads(run.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        result = {"error": run.stderr[-500:]}
    return json.dumps({"id": job["id"], **result})


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--one":
        with contextlib.redirect_stdout(sys.stderr):
            result = time_one(*sys.argv[2:])
        print(json.dumps(result))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs", help="a kmem jobs file (scripts/seed_jobs.py writes the seed's)")
    parser.add_argument("timing_py", help="KernelBench's src/kernelbench/timing.py")
    args = parser.parse_args()
    base = os.path.dirname(os.path.abspath(args.jobs))
    with open(args.jobs) as jobs:
        lines = [line for line in jobs if line.strip()]
    with ThreadPoolExecutor(PROCESSES) as pool:
        for out in pool.map(lambda line: time_job(line, base, args.timing_py), lines):
            print(out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
