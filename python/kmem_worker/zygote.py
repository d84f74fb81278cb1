"""The zygote: imports torch and a role's modules once (no CUDA: a process
that has initialised CUDA cannot fork usable children), then forks a worker
of that role for each request, saving every worker seconds of imports.

Requests come on fd 3, a SOCK_SEQPACKET Unix socket from the orchestrator:
one JSON message {"cmd": "fork", "cpus": [...], "address_space_bytes": N or
null, "baton": [names]} carrying the worker's stdin, stdout and log, then the
descriptors of its baton for creating its CUDA context that "baton" names
("done", "after": see warmup.py); both are records of the worker protocol
(role zygote, data/protocol/worker.json), checked here. The worker is forked
through a short-lived middle process, so that it is re-parented to the
orchestrator (a child subreaper), which waits for it and kills its process
group like any worker it spawned. The answer is {"event": "forked", "pid": N}
once the worker is the orchestrator's child, or {"event": "error", "message"}. The zygote exits when the
socket closes. Trusted code only: nothing of a job is in it."""
import functools
import json
import os
import resource
import socket
import sys
import time
import traceback

from . import protocol, sandbox, warmup

REQUESTS_FD = 3
MAX_REQUEST = 1 << 16
MAX_DESCRIPTORS = 5


def serve(role, device, run_worker):
    """Forks workers that call run_worker(role, device, started, baton) until the
    orchestrator closes the socket, then exits at once (tearing down the
    interpreter with torch loaded would keep the orchestrator waiting)."""
    requests = socket.socket(fileno=REQUESTS_FD)
    rules = protocol.load()
    warmup.preload(role, device)
    worker = functools.partial(run_worker, role, device)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(requests, MAX_REQUEST, MAX_DESCRIPTORS)
        except OSError as error:
            print(f"kmem zygote: {error}", file=sys.stderr)
            os._exit(1)
        if not message:
            os._exit(0)
        try:
            request = json.loads(message)
            rules.check_command("zygote", request)
            answer = {"event": "forked", "pid": _fork_worker(worker, request, fds, requests)}
        except Exception as error:
            answer = {"event": "error", "message": f"{type(error).__name__}: {error}"}
        finally:
            for fd in fds:
                os.close(fd)
        rules.check_event("zygote", answer)
        requests.sendall(json.dumps(answer).encode())


def _fork_worker(worker, request, fds, requests):
    baton = request["baton"]
    if len(fds) != 3 + len(baton) or not set(baton) <= {"done", "after"}:
        raise ValueError(f"{len(fds)} descriptors for a worker whose baton has {baton}")
    sys.stdout.flush()
    sys.stderr.flush()
    report_read, report_write = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(report_read)
            if sandbox.enabled():
                sandbox.enter_namespaces()
            pid = os.fork()
            if pid == 0:
                os.close(report_write)
                _become_worker(worker, request, fds, requests)
            _set_group(pid)
            os.write(report_write, str(pid).encode())
        except BaseException:
            traceback.print_exc()  # why no pid comes: to the zygote's log
        finally:
            os._exit(0)
    os.close(report_write)
    with os.fdopen(report_read, "rb") as report:
        pid = report.read()
    os.waitpid(middle, 0)  # once it has exited, the worker is the orchestrator's child
    if not pid:
        raise RuntimeError("the worker could not be forked")
    return int(pid)


def _set_group(pid):
    """Puts `pid` in a process group of its own (both sides call it, so the
    group exists whichever runs first)."""
    try:
        os.setpgid(pid, pid)
    except OSError:  # the worker got there first
        pass


def _become_worker(worker, request, fds, requests):
    """In the forked worker: takes the orchestrator's descriptors as fds 0-2
    (and keeps those of its baton), applies the request's limits and runs
    `worker`; never returns."""
    started = time.monotonic()
    code = 1
    try:
        _set_group(0)
        if sandbox.enabled():
            sandbox.start_worker()
        requests.close()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
            os.close(fd)
        baton = dict(zip(request["baton"], fds[3:]))
        cpus = request["cpus"]
        if cpus:
            os.sched_setaffinity(0, cpus)
        limit = request["address_space_bytes"]
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        code = worker(started, baton)
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code if isinstance(code, int) else 1)
