"""The candidate sandbox's worker side (kmem_worker/sandbox.py) that can be
checked without confining this process: when it applies, which build cache
a candidate gets, and that a malformed filter is refused before anything is
installed. The confinement itself is tested end to end by
tests/eval/sandbox_test.cpp."""
import hashlib
import os
import tempfile
import unittest
from unittest import mock

from kmem_worker import sandbox


class SandboxTest(unittest.TestCase):
    def test_applies_only_inside_the_sandbox(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertFalse(sandbox.enabled())
        with mock.patch.dict(os.environ, {"KMEM_SANDBOX_RUN_DIR": "/x"}):
            self.assertTrue(sandbox.enabled())

    def test_the_build_cache_is_named_by_the_source_text(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".py") as source:
            source.write(b"print('kernel')\n")
            source.flush()
            self.assertEqual(sandbox.build_key(source.name),
                             hashlib.sha256(b"print('kernel')\n").hexdigest()[:32])

    def test_a_malformed_filter_is_refused_before_anything_is_installed(self):
        for program in (None, b"", b"1234567"):
            with self.assertRaises(OSError):
                sandbox._install(program)


if __name__ == "__main__":
    unittest.main()
