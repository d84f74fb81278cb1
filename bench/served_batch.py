#!/usr/bin/env python3
"""Submits a jobs file (`kmem eval --jobs` format) to `kmem serve` through the
Python client, all at once, then waits for every outcome; writes them as a
results file and prints the wall time from the first submission to the last
outcome, to compare with `kmem eval --jobs` on the same machine
(docs/benchmarks.md, "Served").

    bench/served_batch.py JOBS KERNELBENCH URL TOKEN OUT.jsonl [--one-at-a-time GAP_S]

Problems are sent as paths inside KERNELBENCH (the server's --kernelbench).
With --one-at-a-time, each job is submitted GAP_S seconds after the previous
one's outcome came, as an agent checking one candidate after another does,
and each job's latency (submission to outcome) is printed: the first starts
the server's evaluation, the later ones find it kept warm (--keep-warm)."""
import argparse
import collections
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python", "kmem_client", "src"))
from kmem_client import Client, KmemError  # noqa: E402


def wait_for_server(client, url, seconds=120):
    """Waits until the server answers /v1/health: `kmem serve --device cuda`
    first makes sure torch sees a device, which takes seconds."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            client.health()
            return
        except KmemError as error:
            if time.monotonic() > deadline:
                sys.exit(f"{url} did not answer within {seconds} s: {error}")
            time.sleep(0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs")
    parser.add_argument("kernelbench", help="the server's --kernelbench folder")
    parser.add_argument("url")
    parser.add_argument("token", help="a write token's secret ('' with --insecure-local)")
    parser.add_argument("out")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for all outcomes")
    parser.add_argument("--one-at-a-time", type=float, metavar="GAP_S",
                        help="submit each job GAP_S seconds after the previous outcome; print each latency")
    args = parser.parse_args()

    client = Client(args.url, args.token or None)
    folder = os.path.dirname(os.path.abspath(args.jobs))
    kernelbench = os.path.abspath(args.kernelbench)
    if os.path.isdir(os.path.join(kernelbench, "KernelBench")):  # a checkout: its problems are in KernelBench/
        kernelbench = os.path.join(kernelbench, "KernelBench")
    jobs = [json.loads(line) for line in open(args.jobs) if line.strip()]
    wait_for_server(client, args.url)

    def submit(job):
        problem = os.path.relpath(os.path.join(folder, job["problem"]), kernelbench)
        with open(os.path.join(folder, job["candidate"])) as f:
            source = f.read()
        kind = "python" if job["candidate"].endswith(".py") else "reply"  # as kmem eval takes a candidate
        return client.submit_evaluation(problem, source, kind, id=job["id"])

    if args.one_at_a_time is not None:
        return one_at_a_time(jobs, submit, args)
    started = time.monotonic()
    submitted = [submit(job) for job in jobs]
    submit_s = time.monotonic() - started
    verdicts = collections.Counter()
    with open(args.out, "w") as out:
        for job in submitted:
            try:
                outcome = job.result(timeout=max(1.0, args.timeout - (time.monotonic() - started)))
            except (KmemError, TimeoutError) as error:
                verdicts["failed: " + str(error)] += 1
                continue
            verdicts[outcome.verdict] += 1
            out.write(json.dumps(outcome.raw) + "\n")
    wall = time.monotonic() - started
    print(f"{len(jobs)} jobs through {args.url}: submitted in {submit_s:.2f} s, all outcomes in {wall:.1f} s; "
          + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    return 0 if verdicts.get("pass", 0) == len(jobs) else 1


def one_at_a_time(jobs, submit, args):
    """Each job after the previous outcome and a pause; prints each latency."""
    latencies, passed = [], 0
    with open(args.out, "w") as out:
        for n, job in enumerate(jobs):
            if n:
                time.sleep(args.one_at_a_time)
            started = time.monotonic()
            outcome = submit(job).result(timeout=args.timeout)
            latencies.append(time.monotonic() - started)
            passed += outcome.verdict == "pass"
            out.write(json.dumps(outcome.raw) + "\n")
            print(f"{job['id']}: {outcome.verdict} in {latencies[-1]:.2f} s")
    rest = sorted(latencies[1:])
    print(f"{len(jobs)} jobs one at a time, {args.one_at_a_time:g} s apart: first {latencies[0]:.2f} s"
          + (f", the rest median {rest[len(rest) // 2]:.2f} s" if rest else "") + f"; {passed} pass")
    return 0 if passed == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main())
