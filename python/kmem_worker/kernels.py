"""Finding the candidate's own kernels and counting their launches.

Before the candidate is imported, load_inline is intercepted: each call is
recorded (its CUDA sources give the `__global__` names), built in a folder
keyed by its sources and the toolchain (a build cache shared by candidates),
and the returned module's functions are wrapped with call counters. After the
import, Triton kernels are the JITFunction / Autotuner / Heuristics objects in
the candidate's namespace, and each JITFunction's launches are counted. A
CUDA extension's kernels are found by name in a profile of one forward; on
the CPU, calls into the candidate's extensions count. Every library a build
produces is refused before it is loaded when it imports what a kernel
extension does not need or holds a system-call instruction (native_check),
and OwnTime measures the
GPU time of the candidate's own calls in a forward with CUDA events."""
import contextlib
import fcntl
import functools
import glob
import hashlib
import importlib.abc
import importlib.util
import inspect
import os
import re
import sys
import time

import torch

from . import native_check

GLOBAL_FUNCTION = re.compile(r"__global__\s+(?:[^;{(]*?\s)?\**([A-Za-z_]\w*)\s*\(")
LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\([^)]*\)")


def global_function_names(cuda_sources):
    text = LAUNCH_BOUNDS.sub(" ", "\n".join(cuda_sources))
    return set(GLOBAL_FUNCTION.findall(text))


def _as_list(sources):
    if sources is None:
        return []
    return [sources] if isinstance(sources, str) else list(sources)


class ForbiddenNativeCall(Exception):
    def __init__(self, library, symbols):
        super().__init__(f"{os.path.basename(library)} refused: {', '.join(symbols)} (not what a kernel "
                         "extension may import, or a system-call instruction)")
        self.symbols = symbols


BUILT_MARKER = "kmem-built"
BUILD_LOCK = ".kmem-build.lock"  # flock(2)ed by whoever builds in the folder
TORCH_BUILD_LOCK = "lock"  # torch.utils.cpp_extension's FileBaton, a plain file
CPP_EXTENSION = "torch.utils.cpp_extension"


def _mark_built(folder, module):
    """Records that `folder` holds a complete build (torch 1.13's load_inline
    rewrites its sources on every call, so ninja would always rebuild)."""
    library = getattr(module, "__file__", None)
    if not library:
        return
    temporary = os.path.join(folder, f"{BUILT_MARKER}.{os.getpid()}")
    with open(temporary, "w") as marker:
        marker.write(os.path.basename(library))
    os.replace(temporary, os.path.join(folder, BUILT_MARKER))


@contextlib.contextmanager
def _sole_builder(folder):
    """Holds the cache folder's build lock, which the kernel drops when its
    holder dies. torch's own lock is a file that a killed build leaves
    behind, and every later build of the same sources would wait on it for
    ever; under this lock any such file is stale, and is removed."""
    with open(os.path.join(folder, BUILD_LOCK), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            os.remove(os.path.join(folder, TORCH_BUILD_LOCK))
        except FileNotFoundError:
            pass
        yield


def _load_built(folder, name, check):
    """The module built earlier in `folder` (keyed by its sources and the
    toolchain), or None; check(library) first."""
    try:
        with open(os.path.join(folder, BUILT_MARKER)) as marker:
            library = os.path.join(folder, marker.read().strip())
    except OSError:
        return None
    if not os.path.isfile(library):
        return None
    check(library)
    module_name = os.path.splitext(os.path.basename(library))[0]
    spec = importlib.util.spec_from_file_location(module_name, library)
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cache_may_choose_folder(load_inline, name, cpp_sources, cuda_sources, args, kwargs):
    """Whether a call of `load_inline` leaves its build folder to the cache:
    it names none, by keyword (None counts as none) or by position, as this
    torch's signature places it (newer ones have SYCL arguments before it)."""
    try:
        passed = inspect.signature(load_inline).bind(name, cpp_sources, cuda_sources, *args, **kwargs).arguments
    except TypeError:
        return False  # a call torch refuses: it says why
    if "build_directory" not in passed:
        return True
    return "build_directory" in kwargs and kwargs["build_directory"] is None


def _toolchain():
    return "|".join([sys.executable, torch.__version__, str(torch.version.cuda)])


class KernelWatch:
    """Records the candidate's kernel names and counts calls into its extensions."""

    def __init__(self, build_root):
        self.build_root = build_root
        self.cuda_kernel_names = set()
        self.extension_calls = 0
        self.extension_seconds = 0.0  # spent inside them: on the CPU, the time of its own work
        self.own_time = OwnTime()  # GPU time of its own launches, while measuring the share
        self.forbidden_calls = []  # what a built library was refused for (check_native)

    def check_native(self, library):
        """Refuses, before it is loaded, a built library importing what a
        kernel extension does not need or holding a system-call instruction
        (native_check); kept as a fact should the candidate catch the error."""
        objects = sorted(glob.glob(os.path.join(os.path.dirname(library), "*.o")))
        found = native_check.refusals(library, objects, os.environ.get("CXX", "c++"))
        if found:
            self.forbidden_calls = sorted(set(self.forbidden_calls) | set(found))
            raise ForbiddenNativeCall(library, found)

    def install(self):
        """Intercepts load_inline: at once where torch.utils.cpp_extension is
        loaded, else as soon as anything imports it (its import takes half a
        second, which a Triton candidate never needs to pay)."""
        module = sys.modules.get(CPP_EXTENSION)
        if module is not None:
            self._intercept(module)
        else:
            sys.meta_path.insert(0, _AfterImport(CPP_EXTENSION, self._intercept))

    def _intercept(self, cpp_extension):
        original = cpp_extension.load_inline
        watch = self
        importer = cpp_extension._import_module_from_library  # every JIT build is loaded by it

        @functools.wraps(importer)
        def checked_import(module_name, path, is_python_module):
            watch.check_native(os.path.join(path, module_name + getattr(cpp_extension, "LIB_EXT", ".so")))
            return importer(module_name, path, is_python_module)

        cpp_extension._import_module_from_library = checked_import

        @functools.wraps(original)
        def load_inline(name, cpp_sources, cuda_sources=None, *args, **kwargs):
            cuda = _as_list(cuda_sources)
            watch.cuda_kernel_names |= global_function_names(cuda)
            if not _cache_may_choose_folder(original, name, cpp_sources, cuda_sources, args, kwargs):
                module = original(name, cpp_sources, cuda_sources, *args, **kwargs)
                if kwargs.get("build_directory") is not None:
                    _mark_built(kwargs["build_directory"], module)
                return watch._count_calls(module)
            folder = watch._build_directory(name, cpp_sources, cuda, args, kwargs)
            kwargs["build_directory"] = folder
            with _sole_builder(folder):
                module = _load_built(folder, name, watch.check_native)
                if module is None:
                    module = original(name, cpp_sources, cuda_sources, *args, **kwargs)
                    _mark_built(folder, module)
            return watch._count_calls(module)

        cpp_extension.load_inline = load_inline

    def _build_directory(self, name, cpp_sources, cuda_sources, args, kwargs):
        key = hashlib.sha256()
        for part in [_toolchain(), name, *_as_list(cpp_sources), "\0cuda", *cuda_sources,
                     repr(args), repr(sorted((k, repr(v)) for k, v in kwargs.items()))]:
            key.update(part.encode() + b"\0")
        folder = os.path.join(self.build_root, key.hexdigest()[:24])
        os.makedirs(folder, exist_ok=True)
        return folder

    def _count_calls(self, module):
        for attribute in dir(module):
            function = getattr(module, attribute)
            if attribute.startswith("_") or not callable(function) or isinstance(function, type):
                continue
            setattr(module, attribute, self._counted(function))
        return module

    def _counted(self, function, perf_counter=time.perf_counter):
        @functools.wraps(function)
        def counted(*args, **kwargs):
            self.extension_calls += 1
            begin = perf_counter()
            try:
                return self.own_time.around(function, args, kwargs)
            finally:
                self.extension_seconds += perf_counter() - begin
        return counted


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds module `name` as the import system would without it, and calls
    `then(module)` once the module has run; used once, then removed."""

    def __init__(self, name, then):
        self._name = name
        self._then = then

    def find_spec(self, fullname, path, target=None):
        if fullname != self._name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _LoaderThen(spec.loader, self._then)
        return spec


class _LoaderThen(importlib.abc.Loader):
    """`loader`, calling `then(module)` after the module has executed."""

    def __init__(self, loader, then):
        self._loader = loader
        self._then = then

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._then(module)

    def __getattr__(self, name):  # get_source, get_filename, ...: the wrapped loader's
        return getattr(self._loader, name)


class OwnTime:
    """While active, CUDA events around each call into the candidate's own
    kernels (a Triton launch, a call of its extension) on the current stream:
    the GPU time of its own work in a forward, without a profiler (whose
    start-up takes seconds). Outside those calls nothing is recorded."""

    def __init__(self):
        self.active = False
        self._depth = 0
        self.pairs = []

    def around(self, function, args, kwargs):
        if not self.active or self._depth:
            return function(*args, **kwargs)
        self._depth += 1
        start = torch.cuda.Event(enable_timing=True)
        start.record()
        try:
            return function(*args, **kwargs)
        finally:
            end = torch.cuda.Event(enable_timing=True)
            end.record()
            self.pairs.append((start, end))
            self._depth -= 1

    def share_of(self, call):
        """(own GPU milliseconds, the forward's) of call(), a forward."""
        self.pairs = []
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        self.active = True
        try:
            start.record()
            call()
            end.record()
        finally:
            self.active = False
        torch.cuda.synchronize()
        own = sum(first.elapsed_time(last) for first, last in self.pairs)
        return own, start.elapsed_time(end)


class TritonLaunches:
    """The Triton kernels among a namespace's values (and the attributes of
    the classes it defines), each with its launches counted: every launch,
    direct or through an Autotuner / Heuristics, goes through the kernel's
    JITFunction.run, which is wrapped here."""

    def __init__(self, namespace, own_time=None):
        self.names = set()
        self.launches = 0
        self._own_time = own_time
        self.uncounted = False  # some kernel could not be wrapped: only a profile can tell
        try:
            from triton.runtime.jit import JITFunction
        except ImportError:
            return
        values = list(namespace.values())
        values += [v for cls in namespace.values() if isinstance(cls, type) for v in vars(cls).values()]
        wrapped = set()
        for value in values:
            seen = 0
            while value is not None and not isinstance(value, JITFunction) and seen < 8:
                value = getattr(value, "fn", None)  # Autotuner / Heuristics wrap a JITFunction
                seen += 1
            if isinstance(value, JITFunction) and id(value) not in wrapped:
                wrapped.add(id(value))
                self.names.add(getattr(value.fn, "__name__", ""))
                try:
                    value.run = self._counted(value.run)
                except (AttributeError, TypeError):  # a Triton whose kernels take no attributes
                    self.uncounted = True
        self.names.discard("")

    def _counted(self, run):
        @functools.wraps(run)
        def counted(*args, **kwargs):
            if kwargs.get("warmup", False):  # warmup=True compiles without launching
                return run(*args, **kwargs)
            self.launches += 1
            if self._own_time is None:
                return run(*args, **kwargs)
            return self._own_time.around(run, args, kwargs)
        return counted


def profiled_kernels(call):
    """(name, GPU microseconds) of each CUDA kernel launched while call() runs."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    return [(event.name, max(0.0, float(event.time_range.elapsed_us()))) for event in prof.events()
            if str(getattr(event, "device_type", "")).endswith("CUDA")]


def own_launches_and_share(launched, own_names):
    """(how many of the `launched` kernels, (name, microseconds) pairs, are
    the candidate's own, their GPU milliseconds, their share of the GPU time
    of all of them; None when nothing measurable ran)."""
    matches = _own_name_pattern(own_names)
    own = [us for name, us in launched if matches(name)]
    total = sum(us for _, us in launched)
    return len(own), sum(own) / 1e3, (sum(own) / total if total > 0 else None)


def count_own_launches(kernel_names, own_names):
    """How many launches (kernel names) carry one of the candidate's kernel
    names as a whole identifier (older Triton appends a `_0d1d..` suffix)."""
    matches = _own_name_pattern(own_names)
    return sum(1 for name in kernel_names if matches(name))


def _own_name_pattern(own_names):
    """A test of a launched kernel's name: does it carry one of `own_names`?"""
    if not own_names:
        return lambda name: False
    alternatives = "|".join(map(re.escape, sorted(own_names)))
    pattern = re.compile(r"(?<![\w])(?:%s)(?:_[0-9][0-9a-z]*)?(?![\w])" % alternatives)
    return lambda name: pattern.search(name) is not None
