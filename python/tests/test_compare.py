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


class MismatchFactsTest(unittest.TestCase):
    def test_close_outputs_have_no_facts(self):
        e = torch.randn(4, 4)
        self.assertIsNone(compare.mismatch_facts([e], [e.clone()], TOL))

    def test_first_bad_element_as_a_multi_index_with_samples(self):
        e = torch.zeros(4, 5, 6)
        a = e.clone()
        a[2, 3, 1] = 1.5
        a[3, 3, 3] = -2.0
        facts = compare.mismatch_facts([e], [a], TOL)
        self.assertEqual(facts["output"], 0)
        self.assertEqual(facts["shape"], [4, 5, 6])
        self.assertEqual(facts["first_index"], [2, 3, 1])
        self.assertEqual((facts["bad"], facts["elements"]), (2, 120))
        self.assertEqual(facts["samples"], [{"index": [2, 3, 1], "expected": "0", "got": "1.5"},
                                            {"index": [3, 3, 3], "expected": "0", "got": "-2"}])
        self.assertEqual(facts["where"], "scattered")

    def test_the_first_output_that_differs_is_reported(self):
        e1, e2 = torch.ones(3), torch.ones(3)
        a2 = e2.clone()
        a2[1] = 5.0
        self.assertEqual(compare.mismatch_facts([e1, e2], [e1.clone(), a2], TOL)["output"], 1)

    def test_errors_on_the_border_are_edges(self):
        e = torch.zeros(8, 8)
        a = e.clone()
        a[:, 7] = 1.0
        a[0, 3] = 1.0
        self.assertEqual(compare.mismatch_facts([e], [a], TOL)["where"], "edges")

    def test_errors_from_one_element_to_the_end_are_a_tail(self):
        e = torch.zeros(100)
        a = e.clone()
        a[70:] = 3.0
        facts = compare.mismatch_facts([e], [a], TOL)
        self.assertEqual((facts["where"], facts["first_index"], facts["bad"]), ("tail", [70], 30))

    def test_most_elements_wrong_is_everywhere(self):
        e = torch.randn(10, 10)
        facts = compare.mismatch_facts([e], [e + 1.0], TOL)
        self.assertEqual((facts["where"], facts["bad"]), ("everywhere", 100))

    def test_nan_and_infinity_counted_where_the_expected_value_is_finite(self):
        e = torch.tensor([1.0, float("nan"), 3.0, 4.0])
        a = torch.tensor([float("nan"), float("nan"), float("inf"), 4.0])
        facts = compare.mismatch_facts([e], [a], TOL)
        self.assertEqual((facts["nan"], facts["inf"]), (1, 1))  # the expected NaN is no new one
        self.assertEqual(facts["samples"][0], {"index": [0], "expected": "1", "got": "nan"})
        self.assertEqual(facts["samples"][1], {"index": [2], "expected": "3", "got": "inf"})

    def test_integer_outputs_compared_exactly(self):
        e = torch.arange(6).view(2, 3)
        a = e.clone()
        a[1, 2] = 0
        facts = compare.mismatch_facts([e], [a], TOL)
        self.assertEqual(facts["first_index"], [1, 2])
        self.assertEqual(facts["samples"], [{"index": [1, 2], "expected": "5", "got": "0"}])
