"""What the interpreter's torch install is, without importing torch (seconds
on a GPU machine, before any worker can start): its folder, its version and
the CUDA version it was built for, read from torch/version.py; and whether
a CUDA device is usable (`python3 -m kmem_worker device`), asked of the
driver itself. The orchestrator asks before every batch, and the native
harness's cache key is made from the same facts, so neither waits for an
import of torch that a zygote will make anyway."""
import ctypes
import importlib.util
import os
import sys

# `python3 -m kmem_worker device` exits with these (src/eval/device_probe.cpp).
USABLE = 0
NO_DEVICE = 3
NO_TORCH = 4


def folder():
    """torch's package folder; raises ModuleNotFoundError without torch."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("No module named 'torch'")
    return os.path.abspath(list(spec.submodule_search_locations)[0])


def versions():
    """(torch's version, the CUDA version it was built for or None), as
    torch.__version__ and torch.version.cuda give them."""
    path = os.path.join(folder(), "version.py")
    spec = importlib.util.spec_from_file_location("_kmem_torch_version", path)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"torch's version file {path} cannot be read")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.__version__, getattr(module, "cuda", None)


def cuda_devices():
    """How many CUDA devices the driver shows this process (honouring
    CUDA_VISIBLE_DEVICES as torch does); 0 without a driver or when it
    fails to initialise."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    count = ctypes.c_int(0)
    if driver.cuInit(0) != 0 or driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def main():
    """Exit status USABLE when torch is a CUDA build and the driver shows a
    device (what torch.cuda.is_available() answers), NO_DEVICE when not,
    NO_TORCH when the interpreter has no torch; the reason on stderr."""
    try:
        _, cuda = versions()
    except Exception as error:
        print(f"torch cannot be found: {type(error).__name__}: {error}", file=sys.stderr)
        return NO_TORCH
    if cuda is None:
        print("torch is built without CUDA", file=sys.stderr)
        return NO_DEVICE
    if cuda_devices() == 0:
        print("the CUDA driver shows no device", file=sys.stderr)
        return NO_DEVICE
    return USABLE
