"""The zygote (kmem_worker/zygote.py) in a process of its own, as the
orchestrator runs it: requests on a SOCK_SEQPACKET socket at fd 3 carrying the
worker's stdin, stdout and log (and its baton's descriptors), a worker forked
per request in a process group of its own with the request's CPU affinity,
malformed requests answered with an error, and an exit once the socket
closes. The warm-up's imports are left out (test_warmup.py covers them); the
orchestrator's side is src/eval/zygote_test.cpp."""
import json
import os
import socket
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The zygote's process: its worker writes what it sees as one JSON line on
# its stdout (the request's descriptor 1) and reads one line from its stdin.
ZYGOTE = """
import json, os, sys
os.dup2(int(sys.argv[1]), 3)
from kmem_worker import warmup, zygote
warmup.preload = lambda role, device: None

def run_worker(role, device, started, baton):
    line = sys.stdin.readline()
    print("worker log", file=sys.stderr, flush=True)
    print(json.dumps({"role": role, "device": device, "pid": os.getpid(), "group": os.getpgid(0),
                      "cpus": sorted(os.sched_getaffinity(0)), "baton": sorted(baton), "read": line.strip()}),
          flush=True)
    return 0

zygote.serve("candidate", "cpu", run_worker)
"""


def start_zygote():
    """The zygote's process and the orchestrator's end of its socket."""
    orchestrator, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    environment = {k: v for k, v in os.environ.items() if k != "KMEM_SANDBOX_RUN_DIR"}
    environment["PYTHONPATH"] = PYTHON_DIR
    process = subprocess.Popen([sys.executable, "-c", ZYGOTE, str(theirs.fileno())], pass_fds=(theirs.fileno(),),
                               env=environment)
    theirs.close()
    return process, orchestrator


class ZygoteTest(unittest.TestCase):
    """One zygote serves every test of the class, as it serves a batch."""

    @classmethod
    def setUpClass(cls):
        cls.zygote, cls.orchestrator = start_zygote()

    @classmethod
    def tearDownClass(cls):
        cls.orchestrator.close()
        cls.zygote.wait(timeout=30)

    def ask(self, request, fds):
        socket.send_fds(self.orchestrator, [json.dumps(request).encode()], fds)
        self.orchestrator.settimeout(60)
        return json.loads(self.orchestrator.recv(1 << 16))

    def fork(self, request, extra_fds=()):
        """Forks a worker; returns the zygote's answer and the worker's report."""
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        log_read, log_write = os.pipe()
        mine = [stdin_read, stdout_write, log_write, *extra_fds]
        try:
            answer = self.ask(request, mine)
        finally:
            for fd in mine:
                os.close(fd)
        if answer["event"] == "forked":
            os.write(stdin_write, b"the first command\n")
        os.close(stdin_write)
        with os.fdopen(stdout_read) as stdout, os.fdopen(log_read) as log:
            report = stdout.readline()
            log_text = log.read()
        return answer, (json.loads(report) if report else None), log_text

    def test_a_worker_is_forked_with_its_descriptors_group_and_cpus(self):
        cpu = sorted(os.sched_getaffinity(0))[0]
        done_read, done_write = os.pipe()
        answer, report, log = self.fork({"cmd": "fork", "cpus": [cpu], "address_space_bytes": None,
                                        "baton": ["done"]}, [done_write])
        os.close(done_read)
        self.assertEqual(answer["event"], "forked", answer)
        self.assertEqual(report["pid"], answer["pid"])
        self.assertEqual(report["group"], report["pid"])  # a process group of its own
        self.assertEqual(report["cpus"], [cpu])
        self.assertEqual(report["baton"], ["done"])
        self.assertEqual(report["read"], "the first command")
        self.assertEqual((report["role"], report["device"]), ("candidate", "cpu"))
        self.assertIn("worker log", log)

    def test_each_request_forks_another_worker(self):
        request = {"cmd": "fork", "cpus": [], "address_space_bytes": None, "baton": []}
        first, first_report, _ = self.fork(request)
        second, second_report, _ = self.fork(request)
        self.assertNotEqual(first["pid"], second["pid"])
        self.assertNotEqual(first_report["pid"], self.zygote.pid)
        self.assertEqual(second_report["read"], "the first command")

    def test_a_request_that_breaks_the_protocol_is_refused_and_the_zygote_goes_on(self):
        answer, report, _ = self.fork({"cmd": "fork", "cpus": "all", "address_space_bytes": None, "baton": []})
        self.assertEqual(answer["event"], "error")
        self.assertIn("cpus", answer["message"])
        self.assertIsNone(report)  # no worker: its stdout closed unwritten
        answer, _, _ = self.fork({"cmd": "fork", "cpus": [], "address_space_bytes": None, "baton": ["done"]})
        self.assertEqual(answer["event"], "error")
        self.assertIn("3 descriptors for a worker whose baton has ['done']", answer["message"])
        answer, report, _ = self.fork({"cmd": "fork", "cpus": [], "address_space_bytes": None, "baton": []})
        self.assertEqual(answer["event"], "forked")
        self.assertEqual(report["read"], "the first command")


class ZygoteEndTest(unittest.TestCase):
    def test_the_zygote_exits_when_the_socket_closes(self):
        zygote, orchestrator = start_zygote()
        orchestrator.close()
        self.assertEqual(zygote.wait(timeout=60), 0)

if __name__ == "__main__":
    unittest.main()
