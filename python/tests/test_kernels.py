"""Counting the candidate's own Triton launches and matching kernel names,
with a stand-in for triton.runtime.jit (Triton needs a GPU)."""
import sys
import types
import unittest
from unittest import mock

from kmem_worker import kernels


class JITFunction:
    """The shape of Triton's JITFunction that matters here."""

    def __init__(self, fn):
        self.fn = fn
        self.launched = 0

    def run(self, *args, grid, warmup, **kwargs):
        if not warmup:
            self.launched += 1

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)


class Autotuner:
    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, grid):
        return lambda *args: self.fn.run(*args, grid=grid, warmup=False)


def fake_triton():
    jit = types.ModuleType("triton.runtime.jit")
    jit.JITFunction = JITFunction
    runtime = types.ModuleType("triton.runtime")
    runtime.jit = jit
    triton = types.ModuleType("triton")
    triton.runtime = runtime
    return {"triton": triton, "triton.runtime": runtime, "triton.runtime.jit": jit}


def add_kernel():
    pass


def scale_kernel():
    pass


class TritonLaunchesTest(unittest.TestCase):
    def test_launches_direct_through_autotuner_and_class_attributes_count(self):
        with mock.patch.dict(sys.modules, fake_triton()):
            direct = JITFunction(add_kernel)
            tuned = Autotuner(JITFunction(scale_kernel))

            class ModelNew:
                kernel = direct

            watch = kernels.TritonLaunches({"add": direct, "tuned": tuned, "ModelNew": ModelNew, "n": 3})
            self.assertEqual(watch.names, {"add_kernel", "scale_kernel"})
            direct[(1,)](1, 2)
            tuned[(1,)](1)
            direct.run(grid=(1,), warmup=True)  # compiles, launches nothing
            self.assertEqual(watch.launches, 2)
            self.assertEqual(direct.launched, 1)  # the real run still happens
            self.assertFalse(watch.uncounted)

    def test_without_triton_there_are_no_kernels(self):
        with mock.patch.dict(sys.modules, {"triton": None, "triton.runtime": None, "triton.runtime.jit": None}):
            watch = kernels.TritonLaunches({"x": 1})
        self.assertEqual((watch.names, watch.launches), (set(), 0))


class KernelNamesTest(unittest.TestCase):
    def test_names_match_as_whole_identifiers(self):
        launched = ["add_kernel_0d1d2d", "void add_kernel<float>(float*)", "fused_add_kernel2", "gemm"]
        self.assertEqual(kernels.count_own_launches(launched, {"add_kernel"}), 2)
        self.assertEqual(kernels.global_function_names(["__global__ void __launch_bounds__(256) k1(float* x) {}"]),
                         {"k1"})


if __name__ == "__main__":
    unittest.main()
