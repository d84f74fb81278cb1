"""Builds and loads kmem's native harness (harness.cpp), a C++ torch
extension of kmem's own. It is compiled once per machine and toolchain into
FOLDER/kmem_harness-<hash>.so, the hash covering the source, the compiler,
Python's and torch's versions and torch's install folder, by a one-shot
process (`python3 -m kmem_worker harness`, which the orchestrator runs
before it starts the workers, and which imports torch only when it has to
compile) with the compiler directly: importing
torch.utils.cpp_extension would query the CUDA devices, after which forked
workers could not use CUDA. Workers load the built library with importlib's
ExtensionFileLoader, before any candidate code runs. FOLDER is
$KMEM_HARNESS_DIR, else `__harness__` beside this file (the project's
python folder: as trusted as the worker's own sources, and read-only in the
sandbox)."""
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from . import torch_install

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.cpp")
MODULE = "kmem_harness"


def folder():
    return os.environ.get("KMEM_HARNESS_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "__harness__")


def _compiler():
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise RuntimeError("native harness: no C++ compiler (c++, g++ or clang++) on the PATH")


# Every symbol bound at load and the relocated tables then read-only (full
# RELRO): the harness's pointers to clock_gettime, getrandom and torch's
# functions cannot be redirected by writing its memory.
HARDENING = ("-Wl,-z,now", "-Wl,-z,relro")


def _command(source, library):
    import torch
    root = torch_install.folder()
    include = os.path.join(root, "include")
    abi = int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True))
    libraries = os.path.join(root, "lib")
    return [_compiler(), "-O2", "-std=c++17", "-shared", "-fPIC", "-w", f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
            "-DTORCH_EXTENSION_NAME=" + MODULE, "-I" + include,
            "-I" + os.path.join(include, "torch", "csrc", "api", "include"),
            "-I" + sysconfig.get_paths()["include"], source, "-o", library,
            "-L" + libraries, "-Wl,-rpath," + libraries, "-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python", "-ldl",
            *HARDENING]


def library_path():
    """Where the harness for this source and toolchain is (or goes); torch
    is not imported (torch_install.py)."""
    torch_version, cuda_version = torch_install.versions()
    digest = hashlib.sha256()
    with open(SOURCE, "rb") as source:
        digest.update(source.read())
    for part in (_compiler(), *HARDENING, sys.version, torch_version, str(cuda_version), torch_install.folder(),
                 sysconfig.get_config_var("EXT_SUFFIX") or ""):
        digest.update(part.encode() + b"\0")
    return os.path.join(folder(), f"{MODULE}-{digest.hexdigest()[:24]}.so")


def build():
    """The path of the built harness, compiling it first if it is not there
    (into a temporary file renamed into place, so a reader never sees half a
    library)."""
    path = library_path()
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=".building-", suffix=".so", dir=os.path.dirname(path))
    os.close(fd)
    try:
        built = subprocess.run(_command(SOURCE, partial), capture_output=True, text=True)
        if built.returncode != 0:
            raise RuntimeError("native harness: compiling harness.cpp failed:\n" + built.stderr[-6000:])
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return path


def load():
    """The built harness module; raises naming the command that builds it when it is missing."""
    path = library_path()
    if not os.path.exists(path):
        raise RuntimeError(f"native harness: {path} (for the compiler {_compiler()}) is not built; "
                           "run `python3 -m kmem_worker harness` first")
    import torch  # noqa: F401  (the library links against torch's, loaded first)
    loader = importlib.machinery.ExtensionFileLoader(MODULE, path)
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    """`python3 -m kmem_worker harness`: builds if needed, prints the path."""
    print(build())
    return 0
