"""Comparing outputs: the figures of one call (close, worst absolute and
relative error) and of many calls read back at once."""
import math
import unittest

import torch

from kmem_worker import compare

TOL = 1e-4


class ErrorsTest(unittest.TestCase):
    def test_equal_outputs_are_close_with_no_error(self):
        e = torch.randn(4, 5)
        self.assertEqual(compare.errors([e], [e.clone()], TOL), (True, 0.0, 0.0))

    def test_errors_are_the_worst_over_all_outputs(self):
        e1, e2 = torch.ones(3), torch.full((2,), 10.0)
        a1, a2 = e1 + torch.tensor([0.0, 5e-5, 0.0]), e2 + torch.tensor([0.0, 3e-3])
        close, worst_abs, worst_rel = compare.errors([e1, e2], [a1, a2], TOL)
        self.assertFalse(close)  # 3e-3 > 1e-4 + 1e-4 * 10
        self.assertAlmostEqual(worst_abs, 3e-3, places=6)
        self.assertAlmostEqual(worst_rel, 3e-4, places=6)

    def test_within_tolerance_is_close(self):
        e = torch.full((8,), 2.0)
        close, worst_abs, _ = compare.errors([e], [e + 2e-4], TOL)  # within 1e-4 + 1e-4 * 2
        self.assertTrue(close)
        self.assertAlmostEqual(worst_abs, 2e-4, places=6)

    def test_relative_error_counts_only_large_expected_values(self):
        e = torch.tensor([0.0, 1.0])
        close, worst_abs, worst_rel = compare.errors([e], [torch.tensor([5e-5, 1.0])], TOL)
        self.assertTrue(close)
        self.assertAlmostEqual(worst_abs, 5e-5, places=8)
        self.assertEqual(worst_rel, 0.0)

    def test_nan_on_both_sides_is_equal_and_on_one_side_is_infinite(self):
        e = torch.tensor([float("nan"), 1.0])
        self.assertEqual(compare.errors([e], [e.clone()], TOL), (True, 0.0, 0.0))
        close, worst_abs, _ = compare.errors([torch.ones(2)], [e], TOL)
        self.assertFalse(close)
        self.assertTrue(math.isinf(worst_abs))

    def test_equal_infinities_are_equal_and_opposite_ones_infinitely_apart(self):
        e = torch.tensor([float("inf"), -float("inf"), 2.0])
        self.assertEqual(compare.errors([e], [e.clone()], TOL), (True, 0.0, 0.0))
        close, worst_abs, worst_rel = compare.errors([e], [-e], TOL)
        self.assertFalse(close)
        self.assertTrue(math.isinf(worst_abs))
        self.assertTrue(math.isinf(worst_rel), "no NaN that a max() would drop")

    def test_integer_outputs_must_be_equal(self):
        e = torch.arange(5)
        self.assertEqual(compare.errors([e], [e.clone()], TOL), (True, 0.0, 0.0))
        close, worst_abs, _ = compare.errors([e], [e + 1], TOL)
        self.assertFalse(close)
        self.assertTrue(math.isinf(worst_abs))

    def test_empty_outputs_are_close(self):
        self.assertEqual(compare.errors([torch.empty(0, 3)], [torch.empty(0, 3)], TOL), (True, 0.0, 0.0))

    def test_many_calls_read_at_once_keep_their_order(self):
        e = torch.zeros(3)
        figures = compare.read([compare.error_figures([e], [e + d], TOL) for d in (0.0, 1.0, 0.0, 2.0)])
        self.assertEqual([close for close, _, _ in figures], [True, False, True, False])
        self.assertEqual([worst for _, worst, _ in figures], [0.0, 1.0, 0.0, 2.0])
        self.assertEqual(compare.first_not_close(figures), 1)
        self.assertIsNone(compare.first_not_close(figures[:1]))


if __name__ == "__main__":
    unittest.main()
