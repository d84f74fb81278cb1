"""torch's install described without importing torch (kmem_worker/torch_install.py):
the same folder and versions that an imported torch gives, the `device`
command's exit statuses, and no torch imported on the way (which is what
makes it fast)."""
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from kmem_worker import native_harness, torch_install

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_module(*args, env=None):
    environment = dict(os.environ, PYTHONPATH=PYTHON_DIR, **(env or {}))
    return subprocess.run([sys.executable, "-m", "kmem_worker", *args], capture_output=True, text=True,
                          env=environment)


class TorchInstallTest(unittest.TestCase):
    def test_folder_and_versions_are_those_of_the_imported_torch(self):
        import torch
        self.assertEqual(torch_install.folder(), os.path.dirname(os.path.abspath(torch.__file__)))
        self.assertEqual(torch_install.versions(), (torch.__version__, torch.version.cuda))

    def test_nothing_here_imports_torch(self):
        code = ("import sys; from kmem_worker import native_harness, torch_install; "
                "torch_install.versions(); torch_install.cuda_devices(); native_harness.library_path(); "
                "print('torch' in sys.modules)")
        answer = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=dict(os.environ, PYTHONPATH=PYTHON_DIR))
        self.assertEqual(answer.stdout.strip(), "False", answer.stderr)

    def test_the_harness_key_changes_with_torchs_version(self):
        before = native_harness.library_path()
        with mock.patch.object(torch_install, "versions", return_value=("9.9.9", "99.0")):
            self.assertNotEqual(native_harness.library_path(), before)

    def test_device_is_refused_for_a_torch_without_cuda(self):
        import torch
        if torch.version.cuda is not None:
            self.skipTest("this torch is a CUDA build")
        answer = run_module("device")
        self.assertEqual(answer.returncode, torch_install.NO_DEVICE)
        self.assertIn("without CUDA", answer.stderr)

    def test_device_without_torch_says_so(self):
        with tempfile.TemporaryDirectory() as empty:
            # An interpreter that finds no torch: isolated from site-packages.
            answer = subprocess.run([sys.executable, "-S", "-c",
                                     "import sys; sys.path[:] = [p for p in sys.path if 'packages' not in p]; "
                                     f"sys.path.insert(0, {PYTHON_DIR!r}); "
                                     "from kmem_worker import torch_install; sys.exit(torch_install.main())"],
                                    capture_output=True, text=True, cwd=empty)
        self.assertEqual(answer.returncode, torch_install.NO_TORCH, answer.stderr)
        self.assertIn("No module named 'torch'", answer.stderr)

    def test_no_device_when_the_driver_shows_none(self):
        with mock.patch.object(torch_install, "versions", return_value=("2.11.0", "13.0")), \
                mock.patch.object(torch_install, "cuda_devices", return_value=0):
            self.assertEqual(torch_install.main(), torch_install.NO_DEVICE)
        with mock.patch.object(torch_install, "versions", return_value=("2.11.0", "13.0")), \
                mock.patch.object(torch_install, "cuda_devices", return_value=1):
            self.assertEqual(torch_install.main(), torch_install.USABLE)


if __name__ == "__main__":
    unittest.main()
