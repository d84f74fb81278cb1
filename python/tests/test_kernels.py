"""Counting the candidate's own Triton launches and matching kernel names,
with a stand-in for triton.runtime.jit (Triton needs a GPU); intercepting
load_inline whether or not torch.utils.cpp_extension was imported first,
and giving it the shared build folder unless the call names its own."""
import inspect
import os
import subprocess
import sys
import tempfile
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


INTERCEPTED_LATER = """
import inspect, sys
import torch
from kmem_worker import kernels
assert kernels.CPP_EXTENSION not in sys.modules, "imported already"
kernels.KernelWatch("unused").install()
from torch.utils.cpp_extension import load_inline
from torch.utils import cpp_extension
assert load_inline is cpp_extension.load_inline and hasattr(load_inline, "__wrapped__"), "not intercepted"
assert "def load_inline" in inspect.getsource(cpp_extension), "no source through the loader"
assert not any(isinstance(f, kernels._AfterImport) for f in sys.meta_path), "finder left behind"
"""


class InterceptLoadInlineTest(unittest.TestCase):
    def test_intercepted_when_imported_after_install(self):
        # A fresh interpreter: this one may have imported cpp_extension already.
        package_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        environment = dict(os.environ, PYTHONPATH=os.path.join(package_dir, "python"))
        done = subprocess.run([sys.executable, "-c", INTERCEPTED_LATER], env=environment,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])

    def test_intercepted_at_once_when_already_imported(self):
        from torch.utils import cpp_extension
        original = cpp_extension.load_inline
        try:
            kernels.KernelWatch("unused").install()
            self.assertIs(cpp_extension.load_inline.__wrapped__, original)
        finally:
            cpp_extension.load_inline = original


class BuildCacheTest(unittest.TestCase):
    """load_inline calls that name no build folder get the cache's, by
    keyword or by position, in this torch's signature of load_inline."""

    def setUp(self):
        from torch.utils import cpp_extension
        self.cpp_extension, self.original = cpp_extension, cpp_extension.load_inline
        self.folders = []
        signature = inspect.signature(self.original)

        self.torch_locks_seen = []

        def fake(*args, **kwargs):
            folder = signature.bind(*args, **kwargs).arguments.get("build_directory")
            self.folders.append(folder)
            self.torch_locks_seen.append(bool(folder) and os.path.exists(os.path.join(folder, "lock")))
            return types.SimpleNamespace()
        fake.__signature__ = signature
        cpp_extension.load_inline = fake
        self.original_importer = cpp_extension._import_module_from_library
        self.root = tempfile.TemporaryDirectory()
        kernels.KernelWatch(self.root.name).install()
        self.before_folder = list(signature.parameters).index("build_directory")

    def tearDown(self):
        self.cpp_extension.load_inline = self.original
        self.cpp_extension._import_module_from_library = self.original_importer
        self.root.cleanup()

    def test_a_call_naming_no_folder_gets_the_caches(self):
        load_inline = self.cpp_extension.load_inline
        load_inline("m", "int f();")
        load_inline("m", "int f();", None, *([None] * (self.before_folder - 3)))  # every argument before it
        load_inline("m", "int f();", build_directory=None)
        self.assertEqual(len(self.folders), 3)
        for folder in self.folders:
            self.assertTrue(folder and folder.startswith(self.root.name), folder)

    def test_a_lock_left_by_a_killed_build_does_not_stop_the_next(self):
        # torch waits for ever on its lock file; a build killed mid-way leaves it.
        load_inline = self.cpp_extension.load_inline
        load_inline("m", "int f();")
        with open(os.path.join(self.folders[0], "lock"), "w"):
            pass
        load_inline("m", "int f();")
        self.assertEqual(self.folders[1], self.folders[0])
        self.assertEqual(self.torch_locks_seen, [False, False])

    def test_a_folder_named_by_keyword_or_position_is_kept(self):
        load_inline = self.cpp_extension.load_inline
        load_inline("m", "int f();", build_directory="/mine")
        load_inline("m", "int f();", None, *([None] * (self.before_folder - 3)), "/theirs")
        self.assertEqual(self.folders, ["/mine", "/theirs"])


@unittest.skipUnless(__import__("torch").cuda.is_available(), "no CUDA device")
class OwnTimeTest(unittest.TestCase):
    """Events around its own calls measure their share of a forward's GPU time."""

    def test_a_small_own_call_beside_a_large_product_is_a_small_share(self):
        import torch
        own_time = kernels.OwnTime()
        a = torch.randn(4096, 4096, device="cuda")
        touch = lambda x: x[:1].mul_(1.0)  # noqa: E731 (the candidate's "kernel")

        def forward():
            out = a @ a
            own_time.around(touch, (out,), {})
            return out
        forward()
        own, total = own_time.share_of(forward)
        self.assertGreater(total, 0)
        self.assertLess(own / total, 0.1)
        own, total = own_time.share_of(lambda: own_time.around(lambda: a @ a, (), {}))
        self.assertGreater(own / total, 0.5)


FORBIDDEN_C = r"""
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>
static void* idle(void* arg) { return arg; }
int spawn(void) { return fork(); }
int start(void) { pthread_t t; return pthread_create(&t, 0, idle, 0); }
int find(void) { return dlsym(RTLD_DEFAULT, "getpid") != 0; }
"""

HONEST_CPP = r"""
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>
static std::mutex lock;
extern "C" int work(int n) {
  std::lock_guard<std::mutex> held(lock);
  std::vector<float> v(n + std::thread::hardware_concurrency());
  return static_cast<int>(v.size()) + std::abs(n);
}
"""


class NativeCallsTest(unittest.TestCase):
    """Every library a build produces is checked (native_check, tested in
    test_native_check) before it is loaded: a refused one is never loaded and
    the refusal is kept; an honest one loads."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.forbidden = cls.build("forbidden.c", FORBIDDEN_C, "cc")
        cls.honest = cls.build("honest.cpp", HONEST_CPP, "c++")

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    @classmethod
    def build(cls, name, text, compiler):
        source = os.path.join(cls.folder.name, name)
        with open(source, "w") as out:
            out.write(text)
        library = source + ".so"
        subprocess.run([compiler, "-shared", "-fPIC", source, "-o", library, "-pthread", "-ldl"], check=True)
        return library

    def test_the_library_is_refused_before_it_is_loaded_and_the_refusal_is_kept(self):
        loaded = []
        extension = types.SimpleNamespace(
            load_inline=lambda *args, **kwargs: None, LIB_EXT=".so",
            _import_module_from_library=lambda name, path, python: loaded.append(name))
        watch = kernels.KernelWatch("unused")
        watch._intercept(extension)
        folder, name = os.path.split(self.forbidden[:-len(".so")])
        with self.assertRaises(kernels.ForbiddenNativeCall):
            extension._import_module_from_library(name, folder, True)
        self.assertEqual(loaded, [])
        self.assertEqual(watch.forbidden_calls, ["dlsym", "fork", "pthread_create"])
        folder, name = os.path.split(self.honest[:-len(".so")])
        extension._import_module_from_library(name, folder, True)
        self.assertEqual(loaded, [name])


if __name__ == "__main__":
    unittest.main()
