"""The evaluator's identity (kmem_worker.identity): the line the C++ side
reads (kmem-evaluator-identity/1), a version that changes with the worker's
code and the library versions, and "cpu" as the GPU of CPU runs."""
import json
import subprocess
import sys
import os
import unittest

from kmem_worker import identity


class IdentityTest(unittest.TestCase):
    def test_cpu_identity_fields(self):
        found = identity.identity("cpu")
        self.assertEqual(found["format"], identity.FORMAT)
        self.assertEqual(found["gpu"], "cpu")
        self.assertTrue(found["version"].startswith("sha256:"))
        self.assertEqual(found, identity.identity("cpu"))  # stable

    def test_version_follows_the_worker_code(self):
        first = identity.worker_code_hash()
        self.assertEqual(len(first), 64)
        self.assertEqual(first, identity.worker_code_hash())

    def test_module_prints_one_json_line(self):
        python_dir = os.path.dirname(os.path.dirname(os.path.abspath(identity.__file__)))
        out = subprocess.run([sys.executable, "-m", "kmem_worker.identity", "cpu"], cwd=python_dir,
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(json.loads(out)["format"], "kmem-evaluator-identity/1")


if __name__ == "__main__":
    unittest.main()
