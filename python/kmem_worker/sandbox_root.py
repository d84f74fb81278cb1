"""What the candidates' minimal root must show of this machine besides /usr
(docs/evaluator.md, "Sandbox"): the folders of the Python installation that
runs the worker, of torch and Triton, of the compilers a kernel build runs,
of CUDA and of the GPU driver's libraries, found the way those tools find
them (sys.prefix and sys.path, the packages' specs, $PATH, $CUDA_HOME, the
loaded libcuda). `python3 -m kmem_worker.sandbox_root` prints them, run by
kmem outside the sandbox before it starts one (src/eval/sandbox.cpp), as one
JSON object: {"python": the interpreter's real path, "paths": [absolute
paths]}. kmem decides which of them are bound (never the whole file system,
a home folder or the cache); paths that are symbolic links come with their
targets. Nothing here imports torch or initialises CUDA."""
import ctypes
import importlib.util
import json
import os
import shlex
import shutil
import site
import sys

PACKAGES = ("torch", "triton")
# The programs of a kernel build: load_inline's (c++, ninja, nvcc), Triton's
# launcher build (cc/gcc) and binutils.
TOOLS = ("c++", "g++", "gcc", "cc", "ld", "as", "ninja", "nvcc")
# Variables naming the compilers those builds (and the native harness's)
# prefer to the ones on $PATH; the sandbox inherits them, so what they name
# must be there too.
COMPILER_VARIABLES = ("CC", "CXX")
PACKAGE_FOLDERS = ("site-packages", "dist-packages")


def _with_target(path):
    """`path` and, when it is or lies under a symbolic link, its real path."""
    path = os.path.abspath(path)
    real = os.path.realpath(path)
    return [path] if real == path else [path, real]


def _python_paths():
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths = _with_target(sys.executable)
    for prefix in sorted(prefixes):
        paths += _with_target(prefix)
    # The interpreter's own entries of sys.path (stdlib, site and dist
    # packages), not folders that $PYTHONPATH or the working directory add.
    for entry in sys.path:
        if not entry or not os.path.exists(entry):
            continue
        inside = any(os.path.abspath(entry).startswith(os.path.abspath(p) + os.sep) for p in prefixes)
        if inside or os.path.basename(entry.rstrip(os.sep)) in PACKAGE_FOLDERS:
            paths += _with_target(entry)
    # Debian's sitecustomize.py lives in /etc/pythonX.Y.
    etc = f"/etc/python{sys.version_info.major}.{sys.version_info.minor}"
    if os.path.isdir(etc):
        paths += _with_target(etc)
    return paths


def _package_paths():
    """torch's and Triton's folders and the folders that hold them: their
    own dependencies (numpy, sympy, the nvidia-* wheels) lie beside them,
    wherever that is (a $PYTHONPATH folder, the user's site folder)."""
    paths = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            paths += _with_target(folder) + _with_target(os.path.dirname(os.path.abspath(folder)))
    return paths


def _user_site():
    """The user's site folder when it is on sys.path, else None."""
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site and any(os.path.abspath(entry) == os.path.abspath(user_site) for entry in sys.path if entry):
        return user_site
    return None


def _user_site_environment():
    """PYTHONUSERBASE when the user's site folder is in use: in the sandbox
    HOME is /tmp, where Python would look for it otherwise."""
    return {"PYTHONUSERBASE": site.getuserbase()} if _user_site() else {}


def cuda_home():
    """Where torch's cpp_extension looks for CUDA: $CUDA_HOME, $CUDA_PATH,
    nvcc's folder on $PATH, else /usr/local/cuda; None when none exists."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not home:
        nvcc = shutil.which("nvcc")
        home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else "/usr/local/cuda"
    return home if os.path.isdir(home) else None


def _tools():
    """TOOLS and the programs $CC and $CXX name (a command line: each word
    that is a program, such as `ccache gcc`)."""
    named = []
    for variable in COMPILER_VARIABLES:
        try:
            named += shlex.split(os.environ.get(variable, ""))
        except ValueError:
            continue
    return list(TOOLS) + named


def _tool_paths():
    paths = []
    for tool in _tools():
        found = shutil.which(tool)
        if not found:
            continue
        paths += _with_target(found)
        folder = os.path.dirname(os.path.realpath(found))
        if os.path.basename(folder) == "bin":  # its toolchain: lib/, libexec/, include/ beside bin/
            paths.append(os.path.dirname(folder))
    home = cuda_home()
    return paths + (_with_target(home) if home else [])


def driver_library():
    """The real path of the CUDA driver library (libcuda) as the dynamic
    loader finds it, read from /proc/self/maps once loaded (loading it
    initialises nothing); None without a driver."""
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split(maxsplit=5)[-1].strip()
            if os.path.basename(path).startswith("libcuda.so"):
                return path
    return None


def _library_paths():
    # The driver's folder holds the libraries it loads itself (libnvidia-*).
    library = driver_library()
    paths = _with_target(os.path.dirname(library)) if library else []
    for folder in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep):
        if folder and os.path.isdir(folder):
            paths += _with_target(folder)
    return paths


def root_paths():
    """The paths described in the module's docstring, each once, in order found."""
    user_site = _user_site()
    found = _python_paths() + _package_paths() + _tool_paths() + _library_paths() + ([user_site] if user_site else [])
    return list(dict.fromkeys(os.path.normpath(p) for p in found if os.path.exists(p)))


def main():
    answer = {"python": os.path.abspath(sys.executable), "paths": root_paths(), "environment": _user_site_environment()}
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
