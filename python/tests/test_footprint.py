"""A problem's device memory as its reference measures it (kmem_worker/footprint.py):
one candidate's run counts the call sets, the stage and out-slot, the
judged outputs and the candidate's own process; nothing is reported off
the device."""
import unittest

import torch

from kmem_worker import footprint


class FootprintTest(unittest.TestCase):
    def test_a_candidates_run_counts_both_processes(self):
        mib = 1 << 20
        needed = footprint.per_candidate(held=100 * mib, workspace=20 * mib, set_bytes=10 * mib, sets=8,
                                         sets_ahead=8, output_bytes=4 * mib, judged=8)
        reference_side = (8 + 8 + 1) * 10 * mib + (1 + 8 + footprint.JUDGING_OUTPUTS) * 4 * mib
        self.assertEqual(needed, int(reference_side + footprint.ALLOCATOR_SLACK * 120 * mib))

    def test_nothing_is_measured_or_reported_on_the_cpu(self):
        meter = footprint.Meter("cpu")
        self.assertEqual(meter.watch(lambda: 7), 7)
        self.assertIsNone(meter.held_and_workspace())
        self.assertIsNone(footprint.report(None, 1, 2, 0, 1, 8))

    def test_tensor_bytes_counts_tensors_only(self):
        values = [torch.zeros(4, 8), torch.zeros(3, dtype=torch.float64), 5, None]
        self.assertEqual(footprint.tensor_bytes(values), 4 * 8 * 4 + 3 * 8)


if __name__ == "__main__":
    unittest.main()
