"""Handing inputs to a candidate: the copy is the candidate's own (file on
the CPU; CUDA IPC where a GPU and memory pools exist) and loads back equal."""
import os
import subprocess
import sys
import tempfile
import unittest

import torch

from kmem_worker import transfer

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def payload(device):
    return {"init_inputs": [3, 0.5],
            "trials": [[torch.randn(4, 5, device=device), 7]],
            "timing": [[torch.arange(6, device=device).reshape(2, 3), (1, 2)]]}


class TransferTest(unittest.TestCase):
    def check_round_trip(self, device):
        original = payload(device)
        with tempfile.TemporaryDirectory() as folder:
            shared = transfer.SharedInputs(original, folder, device, ipc=True)
            loaded = transfer.load(shared.path, device)
            self.assertEqual(loaded["init_inputs"], [3, 0.5])
            self.assertTrue(torch.equal(loaded["trials"][0][0], original["trials"][0][0]))
            self.assertEqual(loaded["trials"][0][1], 7)
            self.assertTrue(torch.equal(loaded["timing"][0][0], original["timing"][0][0]))
            self.assertEqual(tuple(loaded["timing"][0][1]), (1, 2))
            # The candidate's copy is not the reference's memory.
            loaded["trials"][0][0].add_(1)
            self.assertFalse(torch.equal(loaded["trials"][0][0], original["trials"][0][0]))
            shared.release()

    def test_cpu_inputs_travel_as_a_file(self):
        self.check_round_trip("cpu")

    @unittest.skipUnless(torch.cuda.is_available(), "no GPU")
    def test_cuda_inputs_travel_by_ipc_to_another_process(self):
        # CUDA IPC handles open only in another process.
        original = payload("cuda")
        with tempfile.TemporaryDirectory() as folder:
            shared = transfer.SharedInputs(original, folder, "cuda", ipc=True)
            expected = original["trials"][0][0].sum().item()
            code = ("import sys; from kmem_worker import transfer; "
                    "p = transfer.load(sys.argv[1], 'cuda'); x = p['trials'][0][0]; "
                    "print(x.device.type, x.sum().item()); x.add_(1); print(p['trials'][0][1])")
            run = subprocess.run([sys.executable, "-c", code, shared.path], capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": PYTHON_DIR}, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr)
            device, total = run.stdout.split("\n")[0].split()
            self.assertEqual(device, "cuda")
            self.assertAlmostEqual(float(total), expected, places=3)
            self.assertEqual(run.stdout.split("\n")[1], "7")
            self.assertEqual(original["trials"][0][0].sum().item(), expected)  # its copy, not ours
            shared.release()


if __name__ == "__main__":
    unittest.main()
