#!/usr/bin/env python3
"""Runs scripts/seed_replay.py end to end on the CPU, as docs/experiments.md
("Replaying the seed kernels") and bench/gpu_checks.sh's replay step run it
on a GPU, over the tiny KernelBench folder and store beside this file (kb/,
store.json: three activation problems, each with an honest C++ kernel): the
script.json it writes is served by kmem-scripted-endpoint, the spec.json runs
with `kmem experiment run`, and `kmem experiment report` must show every
episode of every policy submitted and passed.

  seed_replay_test.py ROOT BUILD CACHE   # exit 1 naming what disagrees

CACHE is the evaluator's cache (shared with the other CPU tests, so each
kernel's C++ build is made once per build folder).
"""
import json
import pathlib
import subprocess
import sys
import tempfile

from harness import KERNELBENCH, STORE, command_line, finish, run, store_kernels

POLICIES = ["none", "show_all"]


def main():
    root, build, env = command_line(__doc__)
    kmem = build / "kmem"
    problems = sorted(i["source"] for i in store_kernels())
    failures = []
    with tempfile.TemporaryDirectory(prefix="kmem-seed-replay-") as scratch:
        out = pathlib.Path(scratch) / "replay"
        replay = [sys.executable, root / "scripts" / "seed_replay.py", "--kernelbench", KERNELBENCH, "--out", out,
                  "--store", STORE, "--policies", ",".join(POLICIES), "--device", "cpu",
                  "--concurrency", "2", "--eval-parallel", "2"]
        # The endpoint takes any free port and says which; the spec is then written for that URL
        # (script.json is the same both times: it does not depend on the endpoint).
        run(replay + ["--endpoint", "http://127.0.0.1:1/v1"], env)
        script = (out / "script.json").read_text()
        endpoint = subprocess.Popen([build / "kmem-scripted-endpoint", out / "script.json", "--port", "0"],
                                    stdout=subprocess.PIPE, text=True)
        try:
            url = endpoint.stdout.readline().strip()
            if not url:
                sys.exit(f"kmem-scripted-endpoint exited {endpoint.wait()} before it printed its URL")
            run(replay + ["--endpoint", url], env)
            if (out / "script.json").read_text() != script:
                failures.append("seed_replay.py wrote another script.json for another --endpoint")
            spec = json.loads((out / "spec.json").read_text())
            if spec["problems"] != problems or spec["device"] != "cpu" or spec["policies"] != POLICIES:
                failures.append(f"spec.json: problems {spec['problems']}, device {spec['device']}, policies "
                                f"{spec['policies']}; expected {problems}, cpu, {POLICIES}")
            replies = json.loads(script)["replies"]
            if sorted(r["when"] for r in replies) != [f"KernelBench problem {p}," for p in problems]:
                failures.append(f"script.json answers {[r['when'] for r in replies]}, not one reply per problem")
            run([kmem, "experiment", "run", out / "spec.json", "--results", out / "results.db", "--quiet",
                 "--work-dir", out / "work"], env)
        finally:
            endpoint.terminate()
            endpoint.wait()
        report = json.loads(run([kmem, "experiment", "report", "seed-replay", "--results", out / "results.db",
                                 "--json"], env))
        run([kmem, "experiment", "report", "seed-replay", "--results", out / "results.db", "--html",
             out / "report.html"], env)
        page = (out / "report.html").read_text()
        if '<canvas id="heatmap">' not in page or any(p not in page for p in problems):
            failures.append("report.html has no heatmap or leaves out a problem")
        cells = {cell["policy"]: cell for cell in report["cells"]}
        if sorted(cells) != sorted(POLICIES):
            failures.append(f"the report's cells are for policies {sorted(cells)}, not {POLICIES}")
        for policy, cell in cells.items():
            # Every episode submitted its kernel and the evaluator passed it: correct is the share that passed.
            if cell["episodes"] != len(problems) or cell["correct"] != 1.0 or cell["errors"] != 0:
                failures.append(f"{policy}: {cell['episodes']} episodes, correct {cell['correct']}, "
                                f"errors {cell['errors']}; expected {len(problems)} episodes, all correct")
        if sorted(report["problems"]) != problems:
            failures.append(f"the report's problems are {report['problems']}, not {problems}")
    return finish(failures)


if __name__ == "__main__":
    sys.exit(main())
