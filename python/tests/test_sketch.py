"""Block sketches: outputs close element by element have close sketches;
an output of other inputs, or with a block left stale, does not; the
checks of an output's type (by identity) and device come before any of
its code could run."""
import unittest

import torch

from kmem_worker import problem, sketch


class SketchTest(unittest.TestCase):
    def test_outputs_within_the_tolerance_have_close_sketches(self):
        expected = torch.randn(300, 700)
        for actual in (expected.clone(), expected * (1 + 9e-5), expected + 9e-5):
            self.assertTrue(sketch.close(sketch.sketch(expected), sketch.sketch(actual), expected.numel(), 1e-4))

    def test_other_inputs_outputs_or_a_stale_block_are_not_close(self):
        expected = torch.randn(300, 700)
        self.assertFalse(sketch.close(sketch.sketch(expected), sketch.sketch(torch.randn(300, 700)),
                                      expected.numel(), 1e-4))
        stale = expected.clone()
        stale.view(-1)[1000:1010] = torch.randn(10)
        self.assertFalse(sketch.close(sketch.sketch(expected), sketch.sketch(stale), expected.numel(), 1e-4))

    def test_blocks_cover_every_element_and_nan_matches_nan(self):
        for numel in (1, 5, 1024, 1025, 300 * 701):
            self.assertEqual(sketch.sketch(torch.ones(numel)).shape, (sketch.block_counts(numel).numel(), 3))
            self.assertEqual(sketch.block_counts(numel).sum().item(), numel)
        x = torch.tensor([1.0, float("nan"), float("inf")])
        self.assertTrue(sketch.close(sketch.sketch(x), sketch.sketch(x.clone()), 3, 1e-4))
        self.assertFalse(sketch.close(sketch.sketch(x), sketch.sketch(torch.tensor([1.0, 2.0, 3.0])), 3, 1e-4))

    def test_integer_outputs_must_match_exactly(self):
        x = torch.arange(5000)
        self.assertTrue(sketch.close(sketch.sketch(x), sketch.sketch(x.clone()), 5000, 1e-4))
        y = x.clone()
        y[7] += 1
        self.assertFalse(sketch.close(sketch.sketch(x), sketch.sketch(y), 5000, 0.0))


class Renamed(torch.Tensor):
    """A subclass calling itself torch.Tensor, whose methods must never run."""
    __module__ = "torch"
    __qualname__ = "Tensor"
    touched = []

    def detach(self):
        Renamed.touched.append("detach")
        return super().detach()

    @property
    def device(self):
        Renamed.touched.append("device")
        return torch.device("cpu")


class CheckedOutputsTest(unittest.TestCase):
    def test_plain_tensors_tuples_lists_and_torch_named_tuples_pass(self):
        t = torch.ones(3)
        self.assertEqual(len(problem.checked_outputs(t)), 1)
        self.assertEqual(len(problem.checked_outputs((t, t))), 2)
        self.assertEqual(len(problem.checked_outputs([t])), 1)
        self.assertEqual(len(problem.checked_outputs(torch.max(torch.ones(2, 2), 0))), 2)

    def test_a_renamed_subclass_is_refused_without_running_its_code(self):
        value = torch.ones(3).as_subclass(Renamed)
        Renamed.touched.clear()
        for output in (value, (torch.ones(3), value), [value]):
            with self.assertRaises(problem.OutputRejected) as raised:
                problem.checked_outputs(output, ["cpu"])
            self.assertEqual(raised.exception.stage, "output_type")
            self.assertIn("subclass of torch.Tensor", str(raised.exception))
            self.assertIn("calls itself torch.Tensor", str(raised.exception))
        self.assertEqual(Renamed.touched, [])

    def test_a_tuple_subclass_or_a_non_tensor_is_refused(self):
        class Pair(tuple):
            pass
        for output in (Pair((torch.ones(1),)), 3.0, None, (torch.ones(1), 2)):
            with self.assertRaises(problem.OutputRejected):
                problem.checked_outputs(output)

    def test_an_output_on_another_device_than_the_references_is_refused(self):
        with self.assertRaises(problem.OutputRejected) as raised:
            problem.checked_outputs(torch.ones(2), ["cuda"])
        self.assertEqual(raised.exception.stage, "output_device")
        self.assertIn("on cpu, the reference's on cuda", str(raised.exception))
        self.assertEqual(len(problem.checked_outputs(torch.ones(2), ["cpu"])), 1)


if __name__ == "__main__":
    unittest.main()
