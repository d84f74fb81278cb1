"""The audit hook refuses by family whatever the spelling: unpickling code
(pickle, numpy's loaders, torch.load), raw memory and foreign calls
through ctypes (also through a bridge numpy hands out), gc's object lists,
memory files however their path is written; and lets honest work run:
torch.save/torch.load of tensors, numpy arrays, dataclasses, namedtuples,
logging, torch.jit.script and plain files.
Each case runs in a process of its own (a hook cannot be removed)."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = """
import os, sys
from kmem_worker import audit
def refuse(event, why):
    print("REFUSED", event, "|", why, flush=True)
    os._exit(3)
audit.install(refuse)
"""


def run_after_hook(body):
    """(exit code, output) of `body` run from a file after the hook is installed."""
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "case.py")
        with open(script, "w") as out:
            out.write(PRELUDE + textwrap.dedent(body))
        done = subprocess.run([sys.executable, script], cwd=PYTHON_DIR, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONPATH": PYTHON_DIR})
    return done.returncode, done.stdout + done.stderr


class RefusedTest(unittest.TestCase):
    def assertRefused(self, body, event):
        code, out = run_after_hook(body)
        self.assertEqual(code, 3, out)
        self.assertIn("REFUSED " + event, out)

    def test_a_pickle_naming_a_callable_is_refused_through_every_loader(self):
        payload = "import pickle\nclass P:\n    def __reduce__(self):\n        return (exec, ('x = 1',))\n"
        self.assertRefused(payload + "pickle.loads(pickle.dumps(P()))", "pickle.find_class")
        self.assertRefused(payload + textwrap.dedent("""
            import io, numpy
            buffer = io.BytesIO()
            numpy.save(buffer, numpy.array([P()], dtype=object), allow_pickle=True)
            buffer.seek(0)
            numpy.lib.format.read_array(buffer, allow_pickle=True)
            """), "pickle.find_class")
        self.assertRefused(payload + textwrap.dedent("""
            import io, torch
            buffer = io.BytesIO()
            torch.save({"x": P()}, buffer)
            buffer.seek(0)
            torch.load(buffer)
            """), "pickle.find_class")

    def test_raw_memory_through_ctypes_is_refused_however_ctypes_is_reached(self):
        self.assertRefused("import ctypes\nctypes.c_double.from_address(id(1.5) + 16)", "ctypes.cdata")
        # numpy's bridge hands out a ctypes type without an import of ctypes.
        self.assertRefused(textwrap.dedent("""
            import numpy
            kind = type(numpy.zeros((1,) * 32).ctypes.shape)
            kind.from_address(id(1.5) + 16)
            """), "ctypes.cdata")
        self.assertRefused("import ctypes\nctypes.string_at(id(1.5), 8)", "ctypes.string_at")
        self.assertRefused("import ctypes\nctypes.CDLL(None).memcpy", "ctypes.dlsym")

    def test_gc_lists_and_other_threads_frames_are_refused(self):
        self.assertRefused("import gc\ngc.get_objects()", "gc.get_objects")
        self.assertRefused("import gc\ngc.get_referrers(sys)", "gc.get_referrers")
        self.assertRefused("sys._current_frames()", "sys._current_frames")

    def test_memory_files_are_refused_however_the_path_is_spelt(self):
        self.assertRefused("open('/proc/self/mem', 'rb')", "open")
        self.assertRefused("open('/pr' + 'oc/self/m'.strip() + 'aps')", "open")
        self.assertRefused("os.chdir('/proc/self')\nopen('./mem', 'rb')", "open")
        self.assertRefused("open('/proc/self/task/../mem', 'rb')", "open")
        self.assertRefused("fd = os.open('/etc/hostname', os.O_RDONLY)\nopen('/proc/self/fd/../mem', 'rb')", "open")
        self.assertRefused("import numpy\nnumpy.lib.npyio.DataSource(None).open('/proc/self/mem', 'r+b')", "open")


class AllowedTest(unittest.TestCase):
    def assertRuns(self, body):
        code, out = run_after_hook(body + "\nprint('DONE')")
        self.assertEqual(code, 0, out)
        self.assertIn("DONE", out)

    def test_tensors_and_arrays_saved_and_loaded(self):
        self.assertRuns(textwrap.dedent("""
            import io, collections, torch, numpy
            buffer = io.BytesIO()
            torch.save({"w": torch.ones(3), "p": torch.nn.Parameter(torch.zeros(2)), "d": torch.float32,
                        "o": collections.OrderedDict(a=torch.arange(3)), "s": torch.Size([2])}, buffer)
            buffer.seek(0)
            loaded = torch.load(buffer)
            assert loaded["w"].sum().item() == 3
            buffer = io.BytesIO()
            numpy.save(buffer, numpy.arange(4.0))
            buffer.seek(0)
            assert numpy.load(buffer).sum() == 6
            """))

    def test_honest_python_that_uses_frames_or_generated_code(self):
        self.assertRuns(textwrap.dedent("""
            import collections, dataclasses, logging, torch
            Point = collections.namedtuple("Point", "x y")
            @dataclasses.dataclass
            class Config:
                block: int = 128
            logging.getLogger("k").warning("block %d", Config().block)
            @torch.jit.script
            def scaled(x: torch.Tensor) -> torch.Tensor:
                return x * 2
            assert scaled(torch.ones(2)).sum().item() == 4 and Point(1, 2).y == 2
            with open('/proc/self/status') as status:
                status.read()
            """))


if __name__ == "__main__":
    unittest.main()
