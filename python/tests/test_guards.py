"""The runtime guards report what changed since their snapshot: functions
replaced and fp32 precision lowered, nothing when all is as it was."""
import functools
import sys
import time
import types
import unittest

import torch

from kmem_worker import guards, problem, timing


class GuardsTest(unittest.TestCase):
    def setUp(self):
        self.tf32 = torch.backends.cuda.matmul.allow_tf32
        self.cudnn_tf32 = torch.backends.cudnn.allow_tf32
        self.matmul_precision = torch.get_float32_matmul_precision()

    def tearDown(self):
        torch.backends.cuda.matmul.allow_tf32 = self.tf32
        torch.backends.cudnn.allow_tf32 = self.cudnn_tf32
        torch.set_float32_matmul_precision(self.matmul_precision)

    def test_nothing_changed_is_no_fact(self):
        self.assertEqual(guards.Guards().facts(), {"precision_flags": [], "patched": []})

    def test_replaced_functions_are_named_until_restored(self):
        guarded = guards.Guards()
        original_equal, original_harness = torch.equal, timing.Harness
        try:
            torch.equal = lambda a, b: True
            timing.Harness = lambda *args: None
            self.assertEqual(guarded.facts()["patched"], ["timing.Harness", "torch.equal"])
        finally:
            torch.equal, timing.Harness = original_equal, original_harness
        self.assertEqual(guarded.facts()["patched"], [])

    def test_a_fake_dressed_as_the_original_is_still_a_patch(self):
        guarded = guards.Guards()
        original = timing.cache_bytes
        timing.cache_bytes = functools.update_wrapper(lambda device: 0, original)
        try:
            self.assertEqual(guarded.facts()["patched"], ["timing.cache_bytes"])
        finally:
            timing.cache_bytes = original

    def test_a_module_swapped_in_the_module_table_is_a_patch(self):
        guarded = guards.Guards()
        original = sys.modules["kmem_worker.timing"]
        sys.modules["kmem_worker.timing"] = types.ModuleType("kmem_worker.timing")
        try:
            self.assertEqual(guarded.facts()["patched"], ["sys.modules['kmem_worker.timing']"])
        finally:
            sys.modules["kmem_worker.timing"] = original
        self.assertEqual(guarded.facts()["patched"], [])

    def test_a_method_set_on_a_class_is_a_patch(self):
        guarded = guards.Guards()
        torch.Tensor.clone = lambda self, *args, **kwargs: self
        try:
            self.assertEqual(guarded.facts()["patched"], ["torch.Tensor.clone"])
        finally:
            del torch.Tensor.clone
        self.assertEqual(guarded.facts()["patched"], [])

    def test_lowered_precision_is_flagged_and_raised_precision_is_not(self):
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        guarded = guards.Guards()
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.set_float32_matmul_precision("medium")
        self.assertEqual(guarded.facts()["precision_flags"],
                         ["torch.backends.cuda.matmul.allow_tf32", "torch.set_float32_matmul_precision"])
        guarded = guards.Guards()
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        self.assertEqual(guarded.facts()["precision_flags"], [])

    def test_strict_fp32_turns_cudnn_tf32_off_so_switching_it_back_on_is_flagged(self):
        torch.backends.cudnn.allow_tf32 = True  # PyTorch's default
        problem.strict_fp32()
        guarded = guards.Guards()
        self.assertFalse(torch.backends.cudnn.allow_tf32)
        self.assertEqual(guarded.facts()["precision_flags"], [])
        torch.backends.cudnn.allow_tf32 = True
        self.assertEqual(guarded.facts()["precision_flags"], ["torch.backends.cudnn.allow_tf32"])

    def test_the_clock_is_watched(self):
        guarded = guards.Guards()
        original = time.perf_counter
        time.perf_counter = lambda: 0.0
        try:
            self.assertIn("time.perf_counter", guarded.facts()["patched"])
        finally:
            time.perf_counter = original


if __name__ == "__main__":
    unittest.main()
