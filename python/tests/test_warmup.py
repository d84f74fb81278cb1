"""A worker's warm-up (kmem_worker/warmup.py): the baton for creating the CUDA
context passed on through pipes, and every failure of the set-up only logged,
never raised (the job then pays for the set-up itself). The CUDA work itself
is covered by the evaluator's GPU suite (tests/eval)."""
import contextlib
import io
import os
import tempfile
import threading
import time
import unittest
from unittest import mock

from kmem_worker import warmup


def closed(fd):
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


class ContextBatonTest(unittest.TestCase):
    def test_entering_waits_until_the_earlier_worker_closes_its_pipe(self):
        read_end, write_end = os.pipe()
        closed_at = []

        def earlier_worker():
            os.write(write_end, b"still creating my context")
            time.sleep(0.2)
            closed_at.append(time.monotonic())
            os.close(write_end)

        thread = threading.Thread(target=earlier_worker)
        thread.start()
        with warmup.ContextBaton({"after": read_end}):
            entered_at = time.monotonic()
        thread.join()
        self.assertGreaterEqual(entered_at, closed_at[0])
        self.assertTrue(closed(read_end))

    def test_leaving_closes_done_which_lets_the_next_worker_go(self):
        read_end, write_end = os.pipe()
        with warmup.ContextBaton({"done": write_end}):
            self.assertFalse(closed(write_end))
        self.assertTrue(closed(write_end))
        self.assertEqual(os.read(read_end, 16), b"")  # the next worker's read ends
        os.close(read_end)

    def test_a_worker_without_a_baton_goes_at_once(self):
        with warmup.ContextBaton({}) as baton:
            self.assertIsInstance(baton, warmup.ContextBaton)

    def test_an_unreadable_baton_is_logged_closed_and_passed(self):
        folder = os.open(tempfile.gettempdir(), os.O_RDONLY)  # read() on a folder fails
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), warmup.ContextBaton({"after": folder}):
            pass
        self.assertIn("kmem worker warm-up: IsADirectoryError", stderr.getvalue())
        self.assertTrue(closed(folder))


class PreloadTest(unittest.TestCase):
    def test_a_failing_import_is_logged_not_raised(self):
        stderr = io.StringIO()
        with mock.patch.object(warmup.problem, "reset_torch_state", side_effect=RuntimeError("no sympy")), \
                contextlib.redirect_stderr(stderr):
            warmup.preload("candidate", "cpu")
            warmup.prepare("reference", "cpu")
        self.assertEqual(stderr.getvalue().count("kmem worker warm-up: RuntimeError: no sympy"), 2)

    def test_a_reference_loads_the_flop_counter(self):
        from kmem_worker import roofline
        with mock.patch.object(roofline, "load_flop_counter") as load:
            warmup.preload("reference", "cpu")
        load.assert_called_once_with()

    def test_triton_is_hashed_only_for_candidates_on_cuda(self):
        with mock.patch.object(warmup, "_hash_triton_installation") as hash_triton, \
                mock.patch.object(warmup, "_triton_warmup", return_value=object()):
            warmup.preload("candidate", "cpu")
            warmup.preload("reference", "cuda")
            hash_triton.assert_not_called()
            warmup.preload("candidate", "cuda")
            hash_triton.assert_called_once_with()

    def test_without_triton_nothing_is_hashed(self):
        with mock.patch.object(warmup, "_hash_triton_installation") as hash_triton, \
                mock.patch.dict("sys.modules", {"kmem_worker.triton_warmup": None}):
            self.assertIsNone(warmup._triton_warmup())
            warmup.preload("candidate", "cuda")
        hash_triton.assert_not_called()


class DeviceTest(unittest.TestCase):
    def test_no_cuda_work_on_the_cpu_or_without_a_device(self):
        with mock.patch.object(warmup.torch, "ones", side_effect=AssertionError("CUDA touched")) as ones:
            warmup.create_context("cpu")
            with mock.patch.object(warmup.torch.cuda, "is_available", return_value=False):
                warmup.create_context("cuda")
                warmup.prepare("candidate", "cuda")
        ones.assert_not_called()

    def test_a_failing_context_is_logged_not_raised(self):
        stderr = io.StringIO()
        with mock.patch.object(warmup.torch.cuda, "is_available", return_value=True), \
                mock.patch.object(warmup.torch, "ones", side_effect=RuntimeError("CUDA error: out of memory")), \
                contextlib.redirect_stderr(stderr):
            warmup.create_context("cuda")
        self.assertIn("kmem worker warm-up: RuntimeError: CUDA error: out of memory", stderr.getvalue())


class TritonKeyTest(unittest.TestCase):
    def test_the_first_module_with_a_key_computes_it_once(self):
        key = mock.Mock()

        def import_module(name):
            if name == "triton.runtime.cache":
                raise ImportError(name)
            return mock.Mock(triton_key=key)

        with mock.patch.object(warmup.importlib, "import_module", side_effect=import_module) as imported:
            warmup._hash_triton_installation()
        key.assert_called_once_with()
        self.assertEqual([c.args[0] for c in imported.call_args_list],
                         ["triton.runtime.cache", "triton.compiler.compiler"])

    def test_a_triton_without_a_key_is_left_alone(self):
        with mock.patch.object(warmup.importlib, "import_module", return_value=object()):
            warmup._hash_triton_installation()  # nothing to call, nothing raised


if __name__ == "__main__":
    unittest.main()
