"""The worker's channel: the timing lock's grant lets the launching thread
also run on the CPU kept for timed calls, without pinning it there, and its
CPUs are restored on release."""
import io
import json
import os
import unittest

from kmem_worker.channel import Channel


@unittest.skipUnless(hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2,
                     "needs CPU affinity and two CPUs")
class TimingLockCpuTest(unittest.TestCase):
    def setUp(self):
        self.original = os.sched_getaffinity(0)
        self.own, self.kept = sorted(self.original)[:2]
        os.sched_setaffinity(0, {self.own})

    def tearDown(self):
        os.sched_setaffinity(0, self.original)

    def test_grant_adds_the_kept_cpu_and_release_restores(self):
        events = io.StringIO()
        channel = Channel(io.StringIO(json.dumps({"cmd": "time", "cpu": self.kept}) + "\n"), events, "candidate")
        channel.acquire_timing_lock()
        self.assertEqual(os.sched_getaffinity(0), {self.own, self.kept})
        channel.release_timing_lock()
        self.assertEqual(os.sched_getaffinity(0), {self.own})
        self.assertEqual([json.loads(line)["event"] for line in events.getvalue().splitlines()],
                         ["time_request", "timed"])

    def test_no_kept_cpu_leaves_the_cpus_alone(self):
        channel = Channel(io.StringIO(json.dumps({"cmd": "time", "cpu": -1}) + "\n"), io.StringIO(), "reference")
        channel.acquire_timing_lock()
        self.assertEqual(os.sched_getaffinity(0), {self.own})
        channel.release_timing_lock()
        self.assertEqual(os.sched_getaffinity(0), {self.own})


class TimingLockRefusedTest(unittest.TestCase):
    def test_anything_but_a_grant_is_an_error(self):
        channel = Channel(io.StringIO(json.dumps({"cmd": "inputs", "path": "/x"}) + "\n"), io.StringIO(), "candidate")
        with self.assertRaisesRegex(RuntimeError, "did not grant"):
            channel.acquire_timing_lock()


if __name__ == "__main__":
    unittest.main()
