"""The client's jobs against a real `kmem serve` and a scripted endpoint:
an episode (CHECK of a rejected reply, SUBMIT of an honest one), the agent
example of docs/client.md, and `pip install` of the package."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest

from .server_fixture import SCRIPTED_ENDPOINT, SOURCE, WRITE_SECRET, Served

from kmem_client import Client, KmemError  # noqa: E402  (path set by server_fixture)

PACKAGE = SOURCE / "python" / "kmem_client"


class AgentTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.endpoint = subprocess.Popen([SCRIPTED_ENDPOINT, str(SOURCE / "docs/quickstart/script.json")],
                                        stdout=subprocess.PIPE, text=True)
        assert cls.endpoint.stdout is not None
        cls.endpoint_url = cls.endpoint.stdout.readline().strip()
        cls.served = Served(str(SOURCE / "docs/quickstart/kb"), ["--episode-endpoint", cls.endpoint_url])
        cls.client = Client(cls.served.url, WRITE_SECRET)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.served.stop()
        cls.endpoint.terminate()
        cls.endpoint.wait(timeout=30)

    def test_an_episode_checks_then_submits(self) -> None:
        episode = self.client.episode("L1_019", "my-model", "show_all", self.endpoint_url, "scripted", timeout=1800)
        self.assertEqual(episode.end, "submitted", episode.raw)
        self.assertEqual(episode.raw["turns"][0]["verdict"], "uses_threads")
        self.assertTrue(episode.raw["correct"])
        with self.assertRaises(KmemError) as e:
            self.client.submit_episode("L1_019", "my-model", "show_all", "http://127.0.0.1:9/v1", "m")
        self.assertEqual(e.exception.status, 400)
        self.assertIn("endpoint.base_url", e.exception.message)

    def test_the_agent_example_of_the_docs(self) -> None:
        # docs/client.md, "An agent's tools": the same command.
        env = dict(os.environ, PYTHONPATH=str(PACKAGE / "src"))
        done = subprocess.run([sys.executable, str(PACKAGE / "examples/agent_tool.py"), "--kmem", self.served.url,
                               "--token", WRITE_SECRET, "--endpoint", self.endpoint_url, "--model", "scripted",
                               "--problem", "L1_019", "--reader", "my-model", "--policy", "show_all"],
                              capture_output=True, text=True, env=env, timeout=1800)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertTrue(lines[0].startswith("turn 1: check: line 10: uses_threads"), done.stdout)
        self.assertRegex(lines[-1], r"^result: pass \d+\.\d\dx$")

    def test_pip_installs_the_package(self) -> None:
        with tempfile.TemporaryDirectory() as target:
            done = subprocess.run(["/usr/bin/python3", "-m", "pip", "install", "--quiet", "--no-build-isolation",
                                   "--no-deps", "--no-index", "--target", target, str(PACKAGE)],
                                  capture_output=True, text=True, timeout=300, cwd=tempfile.gettempdir())
            self.assertEqual(done.returncode, 0, done.stderr)
            probe = subprocess.run(["/usr/bin/python3", "-c", "import kmem_client, sys; print(kmem_client.__file__)"],
                                   capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=target))
            self.assertTrue(probe.stdout.startswith(target), probe.stdout + probe.stderr)


if __name__ == "__main__":
    unittest.main()
