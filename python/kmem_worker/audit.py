"""A refusal layer at run time, behind the static checker: an audit hook
(PEP 578) installed in the candidate's process before its code is imported.
Python cannot remove such a hook, and every spelling of an action raises the
same event, so it refuses by family what no kernel needs and what would hand
the candidate's code the evaluator's state or memory:
- unpickling anything but plain data (pickled code runs: numpy's, torch's
  and the standard library's unpicklers all look globals up here);
- raw memory through ctypes' audited entry points (objects over an address
  or a buffer, addresses, strings read at an address, symbols looked up);
  ctypes' own memmove and a Union over a pointer raise no event, so ctypes
  must stay out of the candidate's reach all the same (the checker);
- gc's lists of objects and other threads' frames;
- a process's memory and address-space files (/proc/*/mem, maps, pagemap)
  and the machine's (/dev/mem, /proc/kcore).
The first refused event ends the process at once: `refuse` (the candidate
role's) writes the error record before any more of the candidate's code can
run. Docs: docs/evaluator.md, "Refused at run time"."""
import os
import re
import sys
import threading

# Globals an unpickler may look up: the reconstruction of tensors, storages,
# arrays and plain containers (what torch.save, numpy and kmem's own
# transfers write), as torch's weights_only unpickler allows.
PLAIN_DATA = re.compile(
    r"torch\._utils\._rebuild_(tensor|tensor_v2|tensor_v3|parameter|parameter_with_state|device_tensor_from_numpy)"
    r"|torch\._tensor\._rebuild_from_type_v2|torch\.nn\.parameter\.Parameter|torch\.Tensor"
    r"|torch\.(cuda\.)?\w*Storage|torch\.storage\.(TypedStorage|UntypedStorage|_load_from_bytes)"
    r"|torch\.(float|bfloat|half|double|int|uint|bool|complex|long|short|cfloat|cdouble)\w*"
    r"|torch\.(device|Size|dtype|layout|memory_format|strided|contiguous_format|channels_last)"
    r"|collections\.(OrderedDict|defaultdict|deque)|builtins\.(set|frozenset|slice|complex|bytearray|bytes|range)"
    r"|_codecs\.encode"
    r"|numpy\.(core|_core)\.multiarray\.(_reconstruct|scalar)|numpy\.(ndarray|dtype)|numpy\.dtypes\.\w+DType")

# Events refused whatever their arguments.
REFUSED = {
    "ctypes.cdata": "a ctypes object over a raw address (from_address)",
    "ctypes.cdata/buffer": "a ctypes object over another object's memory (from_buffer)",
    "ctypes.addressof": "the address of a ctypes object",
    "ctypes.string_at": "memory read at a raw address (string_at)",
    "ctypes.wstring_at": "memory read at a raw address (wstring_at)",
    "ctypes.dlsym": "a native symbol looked up through ctypes",
    "ctypes.dlsym/handle": "a native symbol looked up through ctypes",
    "gc.get_objects": "gc's list of every object",
    "gc.get_referrers": "gc's referrers of an object",
    "gc.get_referents": "gc's referents of an object",
    "sys._current_frames": "the frames of every thread",
}

# Files of a process's memory and address space, and of the machine's.
MEMORY_FILES = re.compile(r"^/proc/[^/]+/(task/[^/]+/)?(mem|maps|smaps|smaps_rollup|numa_maps|pagemap)$"
                          r"|^/proc/kcore$|^/dev/(k?mem|port)$")


def refusal(event, args):
    """Why `event` with `args` is refused, or None."""
    if event in REFUSED:
        return REFUSED[event]
    if event == "pickle.find_class":
        name = f"{args[0]}.{args[1]}"
        return None if PLAIN_DATA.fullmatch(name) else f"unpickling the global {name} (pickled code runs)"
    if event == "open" and isinstance(args[0], (str, bytes)):
        path = os.fsdecode(args[0])
        # Resolved as the kernel would (a relative path, '..' or a link to it).
        resolved = os.path.realpath(path)
        if MEMORY_FILES.match(resolved) or MEMORY_FILES.match(os.path.normpath(path)):
            return f"opening {resolved}, a process's or the machine's memory"
    return None


def install(refuse):
    """Adds the hook: `refuse(event, why)` is called for the first refused
    event (it must not return: the process ends)."""
    busy = threading.local()  # the hook's own work may raise events too (realpath)

    def hook(event, args):
        if getattr(busy, "on", False):
            return
        busy.on = True
        try:
            why = refusal(event, args)
        finally:
            busy.on = False
        if why is not None:
            refuse(event, why)
            raise PermissionError(f"kmem: refused at run time: {why}")  # refuse did not end the process
    sys.addaudithook(hook)
