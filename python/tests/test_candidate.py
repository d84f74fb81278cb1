"""The candidate worker's run (kmem_worker/candidate.py) up to the point
where it needs the reference's inputs: the error record each early failure
ends in, with its stage and kind, and the exit that skips the candidate's
hooks. The whole run, inputs, trials and timing included, is covered through
the real worker processes by tests/eval (CPU and GPU suites)."""
import os
import tempfile
import unittest
from unittest import mock

import torch

from kmem_worker import candidate, kernels, stopwatch, timing


class FakeChannel:
    """The orchestrator's side: commands to hand out, records received."""

    def __init__(self, commands):
        self.commands = list(commands)
        self.sent = []
        self.closed = False

    def receive(self):
        return self.commands.pop(0) if self.commands else None

    def send(self, event, **fields):
        self.sent.append({"event": event, **fields})

    def close(self):
        self.closed = True


class Exited(Exception):
    pass


class RunTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        # No global patches in this process: the kernel watch, the guards and
        # the audit hook (which cannot be removed once added) are tested on
        # their own (test_kernels.py, test_guards.py, test_audit.py).
        for patch in (mock.patch.object(kernels.KernelWatch, "install"),
                      mock.patch.object(candidate.guards, "Guards"),
                      mock.patch.object(candidate.audit, "install"),
                      mock.patch.object(candidate.os, "_exit", side_effect=Exited)):
            patch.start()
            self.addCleanup(patch.stop)

    def command(self, source):
        path = os.path.join(self.folder.name, "candidate.py")
        with open(path, "w") as out:
            out.write(source)
        return {"cmd": "run", "candidate": path, "device": "cpu", "init_seed": 1,
                "timing": {"warmup": 1, "iters": 3}, "workdir": self.folder.name, "outputs": "slots",
                "nonce": "n0nce"}

    def run_worker(self, commands):
        channel = FakeChannel(commands)
        with self.assertRaises(Exited):
            candidate.run(channel, stopwatch.Stopwatch(0.0))
        candidate.os._exit.assert_called_once_with(0)
        self.assertTrue(channel.closed)
        return channel.sent

    def test_the_harness_out_of_memory_is_the_set_ups_failure_of_kind_out_of_memory(self):
        # The evaluator then runs the job again alone, and never blames the candidate.
        failing = mock.Mock(side_effect=torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 100 MiB")
                            if hasattr(torch.cuda, "OutOfMemoryError") else MemoryError("out of memory"))
        with mock.patch.object(timing, "Harness", failing):
            sent = self.run_worker([self.command("raise SystemExit('never imported')\n")])
        self.assertEqual(len(sent), 1, sent)
        self.assertEqual((sent[0]["event"], sent[0]["stage"], sent[0]["kind"]), ("error", "setup", "out_of_memory"))
        self.assertEqual(sent[0]["nonce"], "n0nce")

    def test_a_candidate_that_does_not_import_is_a_build_error_before_any_inputs(self):
        sent = self.run_worker([self.command("def broken(:\n")])
        self.assertEqual([record["event"] for record in sent], ["error"])
        self.assertEqual((sent[0]["stage"], sent[0]["kind"]), ("build", "exception"))
        self.assertIn("SyntaxError", sent[0]["message"])

    def test_anything_but_the_inputs_command_after_building_is_a_protocol_error(self):
        source = "import torch\nclass ModelNew(torch.nn.Module):\n    pass\n"
        sent = self.run_worker([self.command(source), {"cmd": "run"}])
        self.assertEqual([record["event"] for record in sent], ["built", "error"])
        self.assertEqual(sent[1]["stage"], "protocol")


if __name__ == "__main__":
    unittest.main()
