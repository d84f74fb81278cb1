"""What the CPU tests of scripts/ (seed_replay_test.py, learning_run_test.py)
share: their command line, ROOT BUILD CACHE as tests/scripts/CMakeLists.txt
passes it; the tiny KernelBench folder and store beside them; running a
command, echoed; and their exit status, naming each disagreement."""
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
KERNELBENCH = HERE / "kb"
STORE = HERE / "store.json"


def command_line(usage):
    """ROOT, BUILD and CACHE from the command line, resolved, and the environment that points the
    evaluator at CACHE; exits with `usage` for any other command line."""
    if len(sys.argv) != 4:
        sys.exit(usage)
    root, build, cache = (pathlib.Path(p).resolve() for p in sys.argv[1:])
    return root, build, dict(os.environ, KMEM_CACHE_DIR=str(cache))


def store_kernels():
    """The `kernel` items of the store beside this file."""
    return [i for i in json.loads(STORE.read_text())["items"] if i["kind"] == "kernel"]


def run(args, env, timeout=900, show_output=False):
    """Runs `args`, echoing it; returns its stdout. Exits naming it unless it exits 0, with its output
    (printed anyway where `show_output`)."""
    command = " ".join(map(str, args))
    print("$ " + command, flush=True)
    done = subprocess.run(list(map(str, args)), env=env, capture_output=True, text=True, timeout=timeout)
    if show_output:
        print(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"`{command}` exited {done.returncode}" + ("" if show_output else f":\n{done.stdout}{done.stderr}"))
    return done.stdout


def finish(failures):
    """Prints each failure; the exit status: 1 when there is any."""
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0
