"""The torch.compile baseline's fallbacks: no torch.compile, a compiler that
raises, a compile over its time limit, and a timing that fails are each "no
baseline" with a reason; a working compile is timed."""
import time
import unittest

import torch

from kmem_worker import compile_baseline


class Doubler(torch.nn.Module):
    def forward(self, x):
        return x * 2


class CompileBaselineTest(unittest.TestCase):
    def test_a_compiled_model_is_timed(self):
        calls = []
        ms, reason = compile_baseline.measure(Doubler(), [torch.ones(3)], lambda m: calls.append(m) or 1.25,
                                              compile_model=lambda m: m)
        self.assertEqual((ms, reason), (1.25, None))
        self.assertEqual(len(calls), 1)

    def test_a_torch_without_compile_gives_no_baseline(self):
        saved = getattr(torch, "compile", None)
        if saved is not None:
            del torch.compile
        try:
            ms, reason = compile_baseline.measure(Doubler(), [torch.ones(3)], lambda m: 1.0)
        finally:
            if saved is not None:
                torch.compile = saved
        self.assertIsNone(ms)
        self.assertIn("has no torch.compile", reason)

    def test_a_failing_compiler_gives_no_baseline(self):
        def broken(model):
            raise RuntimeError("inductor: no C++ compiler\nsecond line")
        ms, reason = compile_baseline.measure(Doubler(), [torch.ones(3)], lambda m: 1.0, compile_model=broken)
        self.assertIsNone(ms)
        self.assertEqual(reason, "RuntimeError: inductor: no C++ compiler")

    def test_a_compile_over_its_time_limit_gives_no_baseline(self):
        class Slow(torch.nn.Module):
            def forward(self, x):
                time.sleep(5)
                return x
        begin = time.monotonic()
        ms, reason = compile_baseline.measure(Slow(), [torch.ones(1)], lambda m: 1.0, time_limit_s=0.2,
                                              compile_model=lambda m: m)
        self.assertLess(time.monotonic() - begin, 2.0)
        self.assertIsNone(ms)
        self.assertIn("compiling took more than 0.2 s", reason)

    def test_a_failing_timing_gives_no_baseline(self):
        def timed(model):
            raise ValueError("outputs differ")
        ms, reason = compile_baseline.measure(Doubler(), [torch.ones(3)], timed, compile_model=lambda m: m)
        self.assertIsNone(ms)
        self.assertEqual(reason, "ValueError: outputs differ")


if __name__ == "__main__":
    unittest.main()
