"""Builds and loads kmem's native timer (native_clock.c) when the worker's
modules are imported, in the zygote or the worker before any problem or
candidate code runs. It is compiled afresh into a private temporary folder
(0.2-0.5 s with the system's C compiler; no torch headers), loaded, and the
folder removed: nothing on disk that a candidate of this or a later batch
could replace. Clock is the loaded type; the Python side keeps a reference
to it and to the clocks it makes, taken before any candidate is imported."""
import importlib.util
import os
import shutil
import subprocess
import sysconfig
import tempfile

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "native_clock.c")
MODULE = "kmem_native_clock"


def _compiler():
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise RuntimeError("native clock: no C compiler (cc, gcc or clang) on the PATH")


def build_and_load():
    """The native module, compiled from SOURCE into a folder removed once it is loaded."""
    folder = tempfile.mkdtemp(prefix="kmem-clock-")
    try:
        library = os.path.join(folder, MODULE + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
        command = [_compiler(), "-O2", "-shared", "-fPIC", "-I" + sysconfig.get_paths()["include"], SOURCE,
                   "-o", library, "-ldl"]
        built = subprocess.run(command, capture_output=True, text=True)
        if built.returncode != 0:
            raise RuntimeError("native clock: compiling native_clock.c failed:\n" + built.stderr[-4000:])
        spec = importlib.util.spec_from_file_location(MODULE, library)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        shutil.rmtree(folder, ignore_errors=True)


Clock = build_and_load().Clock
