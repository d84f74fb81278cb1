"""The candidate worker's confinement, done by the worker on itself in
trusted code (docs/evaluator.md, "Sandbox"). The candidate zygote runs in a
bubblewrap sandbox (src/eval/sandbox.cpp: no network, a minimal read-only
root, sandbox_root.py, the cache folder hidden, /tmp private) and keeps
CAP_SYS_ADMIN for this:
- enter_namespaces(), in the zygote's short-lived middle process: the worker
  it forks next is pid 1 of a PID namespace of its own (no signal reaches
  outside it; when it dies the kernel kills everything left in it) and has a
  mount namespace of its own;
- start_worker(), in the worker: mounts stay private, /proc shows its namespace,
  the kernel's settings in it (/proc/sys, /proc/sysrq-trigger, ...) read-only;
- confine(), at the run command, before any candidate code: a fresh /tmp
  with only this candidate's build caches (CACHE/builds/<sha256 of its
  source>), a fresh, empty cache folder holding only its own job's scratch
  folder (bound from the batch's) and its working directory there, a
  fresh, empty /dev/shm (unless the run shares the machine's for CUDA IPC:
  $KMEM_SANDBOX_DEV_SHM), every capability dropped, no new privileges,
  seccomp filter `confined`;
- forbid_processes(), after the trials (its compilers have run): seccomp
  filter `no_processes`, threads only.
The filters are BPF programs kmem's C++ side made with libseccomp; they are
installed on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC)."""
import ctypes
import hashlib
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
# What of a fresh procfs writes the machine's kernel rather than this
# process: read-only, as container runtimes keep them.
PROC_KERNEL = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
SECCOMP_SYSCALL = {"x86_64": 317, "aarch64": 277}
CAPABILITY_VERSION_3 = 0x20080522
BUILD_DIR = "/tmp/kmem-build"  # src/eval/sandbox.h: kSandboxBuildDir

_libc = ctypes.CDLL(None, use_errno=True)


def enabled():
    """Whether this process belongs to the candidates' sandbox."""
    return "KMEM_SANDBOX_RUN_DIR" in os.environ


def _check(result, what):
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"sandbox: {what}: {os.strerror(error)}")


def _mount(source, target, fstype, flags, data=None):
    encode = (lambda s: None if s is None else s.encode())
    _check(_libc.mount(encode(source), encode(target), encode(fstype), ctypes.c_ulong(flags), encode(data)),
           f"mount {target}")


def enter_namespaces():
    """In the middle process: its next child gets PID and mount namespaces of its own."""
    _check(_libc.unshare(CLONE_NEWPID | CLONE_NEWNS), "unshare")


def start_worker():
    """In the worker (pid 1 of its namespace): private mounts, its own /proc,
    the kernel's settings in it read-only. A fresh procfs has none of
    bubblewrap's read-only covers, and the worker is uid 0: with no
    capability at all it could still write /proc/sys (a held-out candidate
    wrote vm.swappiness; kernel.core_pattern runs a program as root outside
    every namespace) and /proc/sysrq-trigger."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path in PROC_KERNEL:
        if os.path.exists(path):
            _mount(path, path, None, MS_BIND | MS_REC)
            _mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)


def build_key(candidate):
    """The folder of CACHE/builds that the candidate at path `candidate` may write."""
    with open(candidate, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()[:32]


def confine(candidate, workdir):
    """Before the candidate's code: see the module's docstring. `workdir` is
    the job's scratch folder, which holds the candidate file."""
    filters = {name: _read(os.environ["KMEM_SECCOMP_" + name.upper()]) for name in ("confined", "no_processes")}
    builds = os.path.join(os.environ["KMEM_SANDBOX_BUILDS"], build_key(candidate))
    held = {}
    for name in ("torch_extensions", "triton"):
        os.makedirs(os.path.join(builds, name), exist_ok=True)
        held[name] = os.open(os.path.join(builds, name), os.O_PATH)
    scratch = os.open(workdir, os.O_PATH)
    # A fresh /tmp hides what the zygote's had: every candidate's builds, the
    # Triton cache of the warm-up, other workers' files.
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    # Its own /dev/shm, gone with its mount namespace when the job ends.
    if os.environ.get("KMEM_SANDBOX_DEV_SHM") != "shared":
        _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    for name, fd in held.items():
        target = os.path.join(BUILD_DIR, name)
        os.makedirs(target)
        _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND)
        os.close(fd)
    cache = os.environ["KMEM_SANDBOX_CACHE"]
    if os.path.isdir(cache):  # still seen (not under /tmp): other jobs' scratch, the logs, the zygote's tmpfs
        _mount("tmpfs", cache, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    os.makedirs(workdir, exist_ok=True)
    _mount(f"/proc/self/fd/{scratch}", workdir, None, MS_BIND)
    os.close(scratch)
    # Through the new mounts: the old working directory (the batch's scratch,
    # now covered) would still show every job's folder.
    os.chdir(workdir)
    _drop_capabilities()
    _install(filters["confined"])
    global _no_processes
    _no_processes = filters["no_processes"]


_no_processes = None


def forbid_processes():
    """No process creation from now on (threads still allowed)."""
    _install(_no_processes)


def _read(path):
    with open(path, "rb") as program:
        return program.read()


def _drop_capabilities():
    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]
    _check(_libc.capset(ctypes.byref(Header(CAPABILITY_VERSION_3, 0)), ctypes.byref((Data * 2)())), "capset")


def _install(program):
    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
    if not program or len(program) % 8:
        raise OSError("sandbox: no seccomp program")
    machine = os.uname().machine
    if machine not in SECCOMP_SYSCALL:
        raise OSError(f"sandbox: seccomp on {machine} is not supported")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    fprog = Program(len(program) // 8, program)
    _check(_libc.syscall(SECCOMP_SYSCALL[machine], SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
                         ctypes.byref(fprog)), "seccomp")
