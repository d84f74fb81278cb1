#!/usr/bin/env python3
"""Runs the commands of docs/scale-out.md, "On one machine": `kmem eval --queue`
in the background, one `kmem worker --exit-when-idle`, and checks that the
queued results hold the verdicts the page states (those of the quick start's
local batch). Runs them against an SQLite file and, when $KMEM_TEST_PG_URL
names a server (scripts/test.sh starts one), against PostgreSQL too.

  scale_out_test.py ROOT BUILD CACHE   # exit 1 naming the step that disagrees
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

PAGE = "docs/scale-out.md"


def page_commands(root):
    """The three commands of the page's "On one machine" block."""
    text = (pathlib.Path(root) / PAGE).read_text()
    section = text[text.index("## On one machine"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def run(root, build, cache, scratch, db):
    """Runs the page's commands with scratch/ and the database replaced; returns failures."""
    env = dict(os.environ, PATH=f"{build}:{os.environ['PATH']}", KMEM_CACHE_DIR=cache)
    commands = [c.replace("scratch/queue.db", db).replace("scratch/", f"{scratch}/") for c in page_commands(root)]
    if len(commands) != 3 or not commands[0].endswith("&") or commands[2] != "wait":
        return [f"{PAGE}: expected a backgrounded kmem eval --queue, a kmem worker and wait, not {commands}"]
    submit = subprocess.Popen(commands[0].rstrip("& ").split(), cwd=root, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    worker = subprocess.run(commands[1].split(), cwd=root, env=env, capture_output=True, text=True, timeout=900)
    out, _ = submit.communicate(timeout=900)
    failures = []
    if worker.returncode != 0 or len(re.findall(r"job \d+: \S+ stored", worker.stderr)) != 2:
        failures.append(f"{db}: the worker exited {worker.returncode} without storing two jobs:\n{worker.stderr}")
    if submit.returncode != 0 or "verdicts: pass 1, uses_threads 1" not in out:
        failures.append(f"{db}: kmem eval --queue exited {submit.returncode}:\n{out}")
    results = [json.loads(line) for line in (scratch / "queued.jsonl").read_text().splitlines()]
    verdicts = {r["id"]: r["verdict"] for r in results}
    if verdicts != {"relu-cpp": "pass", "relu-thread": "uses_threads"}:
        failures.append(f"{db}: queued verdicts {verdicts}")
    return failures


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, build, cache = (str(pathlib.Path(p).resolve()) for p in sys.argv[1:])
    failures = []
    with tempfile.TemporaryDirectory(prefix="kmem-scale-out-") as scratch:
        failures += run(root, build, cache, pathlib.Path(scratch), f"{scratch}/queue.db")
    pg = os.environ.get("KMEM_TEST_PG_URL")
    if pg:
        schema = f"scale_out_{os.getpid()}"
        url = pg + ("&" if "?" in pg else "?") + f"options=-csearch_path%3D{schema}"
        create = subprocess.run(["psql", pg, "-qc", f"CREATE SCHEMA {schema}"], capture_output=True, text=True)
        if create.returncode != 0:
            failures.append(f"cannot create schema {schema}: {create.stderr}")
        else:
            try:
                with tempfile.TemporaryDirectory(prefix="kmem-scale-out-") as scratch:
                    failures += run(root, build, cache, pathlib.Path(scratch), url)
            finally:
                subprocess.run(["psql", pg, "-qc", f"DROP SCHEMA {schema} CASCADE"], capture_output=True)
    else:
        print("scale_out_test: KMEM_TEST_PG_URL unset: PostgreSQL not tried")
    for f in failures:
        print(f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
