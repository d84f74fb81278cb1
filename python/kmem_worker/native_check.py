"""What a candidate's built extension may import, and the system-call
instructions its code may not hold: checked before the library is loaded.

A library's undefined dynamic symbols (`nm -D --undefined-only`) are its
imports. Each must belong to a family a kernel extension needs (an
allow-list; anything else, e.g. `timer_create`, `dlopen`, `PyRun_String`, is
refused), and must not be one of the few entries of those families that
start work outside the call, load or run code, or change the evaluator's
settings (FORBIDDEN_*). C++ names are judged by their mangled scope (the
first name after `_Z`) and, demangled by `c++filt`, against the forbidden
C++ names. The code of the library's executable sections, disassembled by
`objdump -d`, may not hold a system-call instruction. All three tools are
binutils, present wherever g++ or nvcc link.

A toolchain may link its C++ runtime statically (a g++ configured so, or
`-static-libstdc++` in LDFLAGS): the library then imports what the runtime
itself needs (`read`, `close`, locales, transactional-memory hooks), which no
code of the candidate's calls. Where the extension's object files are at
hand (cpp_extension leaves them in its build folder), an import refused is
judged again: what those objects import from outside themselves is the
candidate's code and always counts; an import of the library's none of them
makes counts unless the compiler's static runtime archives (libstdc++.a,
libsupc++.a, libgcc.a, libgcc_eh.a) import it."""
import functools
import os
import re
import shlex
import shutil
import subprocess

# The Python C-API families pybind11's bindings and torch's type casters use:
# objects, numbers, strings, containers, errors, types, modules being built,
# capsules, the GIL and thread state, memory.
PYTHON_FAMILIES = (
    "PyObject_", "PyLong_", "PyFloat_", "PyBool_", "PyComplex_", "PyUnicode_", "PyBytes_", "PyByteArray_",
    "PyTuple_", "PyList_", "PyDict_", "PySet_", "PyFrozenSet_", "PySequence_", "PyMapping_", "PyIter_",
    "PySlice_", "PyNumber_", "PyIndex_", "PyCapsule_", "PyErr_", "PyExc_", "PyException_", "PyGILState_",
    "PyThreadState_", "PyThread_tss_", "PyInterpreterState_", "PyMem_", "PyType_", "PyBaseObject_Type",
    "PyCFunction_", "PyCMethod_", "PyInstanceMethod_", "PyMethod_", "PyModule_", "PyModuleDef_",
    "PyWeakref_", "PyProperty_Type", "PyStaticMethod_", "PyMemoryView_", "PyBuffer_", "PyVectorcall_",
    "PyCallable_", "PyOS_snprintf", "PyOS_vsnprintf", "Py_GetVersion", "Py_IsInitialized", "Py_IncRef",
    "Py_DecRef", "Py_NewRef", "Py_XNewRef", "Py_IsNone", "Py_Is", "_Py_", "_PyObject_", "_PyType_Lookup",
    "_PyThreadState_UncheckedGet", "_PyErr_", "_PyArg_", "_PyUnicode_", "_PyLong_", "_PyDict_",
    "PyArg_", "Py_BuildValue", "_Py_BuildValue")
# pybind11's own GIL release (gil_scoped_release) and its internals (which
# read the builtins once, set module attributes, read frames for error
# messages): referenced by every binding, so allowed by exact name.
PYTHON_BINDING_CALLS = frozenset("""
    PyEval_GetBuiltins PyEval_SaveThread PyEval_RestoreThread PyEval_AcquireThread PyEval_ReleaseThread
    PyEval_InitThreads PyEval_ThreadsInitialized PyFrame_GetBack PyFrame_GetCode PyFrame_GetLineNumber
    PyCode_Addr2Line
""".split())
# Members of those families that delete attributes or interrupt another
# thread: no binding needs them. (pybind11's module and class bindings set
# attributes, by C string and by object, and set instances' __dict__, so
# those are allowed.) What runs, compiles or imports code (PyRun_*,
# Py_CompileString, PyImport_*, PyEval_* but the GIL's and the builtins',
# PySys_*, PyMarshal_*, PyCode_New*, PyFunction_*) is in no family.
FORBIDDEN_PYTHON = frozenset("""
    PyObject_GenericSetAttr PyObject_DelAttr PyObject_DelAttrString PyObject_DelItemString
    PyThreadState_SetAsyncExc _PyThreadState_SetAsyncExc _Py_RunMain
""".split())

# The CUDA runtime a kernel extension calls: memory, launches, events, the
# current stream's queries, devices, errors, occupancy, symbols; and the
# registration calls nvcc emits (`__cuda*`). Not streams of its own, host
# callbacks, graphs and capture, IPC, driver entry points, device reset.
CUDA_RUNTIME = frozenset("""
    cudaMalloc cudaMallocAsync cudaMallocHost cudaMallocManaged cudaMallocPitch cudaMalloc3D cudaHostAlloc
    cudaFree cudaFreeAsync cudaFreeHost cudaMemcpy cudaMemcpyAsync cudaMemcpy2D cudaMemcpy2DAsync
    cudaMemcpy3D cudaMemcpy3DAsync cudaMemcpyToSymbol cudaMemcpyToSymbolAsync cudaMemcpyFromSymbol
    cudaMemcpyFromSymbolAsync cudaMemcpyPeer cudaMemcpyPeerAsync cudaMemset cudaMemsetAsync cudaMemset2D
    cudaMemset2DAsync cudaMemGetInfo cudaMemPrefetchAsync cudaMemAdvise cudaGetSymbolAddress
    cudaGetSymbolSize cudaPointerGetAttributes cudaHostGetDevicePointer cudaLaunchKernel
    cudaLaunchKernelExC cudaLaunchKernelEx cudaLaunchCooperativeKernel cudaFuncSetAttribute
    cudaFuncGetAttributes cudaFuncSetCacheConfig cudaFuncSetSharedMemConfig cudaFuncGetName
    cudaOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags
    cudaOccupancyMaxPotentialClusterSize cudaOccupancyMaxActiveClusters cudaOccupancyAvailableDynamicSMemPerBlock
    cudaGetLastError cudaPeekAtLastError cudaGetErrorString cudaGetErrorName cudaGetDevice cudaGetDeviceCount
    cudaGetDeviceProperties cudaGetDeviceProperties_v2 cudaDeviceGetAttribute cudaSetDevice
    cudaDeviceSynchronize cudaDeviceGetLimit cudaDeviceGetCacheConfig cudaDeviceGetSharedMemConfig
    cudaDeviceCanAccessPeer cudaDeviceGetStreamPriorityRange cudaStreamSynchronize cudaStreamQuery
    cudaStreamWaitEvent cudaStreamGetPriority cudaStreamGetFlags cudaStreamGetId cudaStreamGetDevice
    cudaEventCreate cudaEventCreateWithFlags cudaEventRecord cudaEventRecordWithFlags
    cudaEventSynchronize cudaEventQuery cudaEventDestroy cudaEventElapsedTime cudaDriverGetVersion
    cudaRuntimeGetVersion cudaChooseDevice cudaCreateChannelDesc cudaCreateTextureObject
    cudaDestroyTextureObject cudaGetTextureObjectResourceDesc cudaMallocArray cudaFreeArray cudaMalloc3DArray
    cudaMemcpy2DToArray cudaMemcpy2DToArrayAsync cudaMemcpy2DFromArray cudaMemcpy2DFromArrayAsync
    cudaStreamIsCapturing cudaStreamGetCaptureInfo cudaStreamGetCaptureInfo_v2 cudaStreamGetCaptureInfo_v3
    cudaHostRegister cudaHostUnregister cudaGetDeviceFlags
""".split())
CUDA_REGISTRATION = "__cuda"  # __cudaRegisterFatBinary, __cudaPushCallConfiguration, __cudaLaunchKernel, ...
# CUDA's libraries a candidate may link (docs/verdicts.md's build flags);
# their math modes are the checker's (precision_downcast).
CUDA_LIBRARY_FAMILIES = ("cublas", "cudnn", "cufft", "cusparse", "cusolver", "curand")

# OpenMP's fork-join constructs: every thread's work is done when the
# construct returns. Not tasks (which may outlive it), teams, targets or
# changing the thread count; not the split entry points of GCC before 4.9
# (GOMP_parallel_start, GOMP_parallel_loop_*_start, ..._sections_start),
# whose threads go on running after the caller returns unless it calls the
# matching end: the compilers of today emit the joined forms only.
OPENMP = frozenset("""
    omp_get_thread_num omp_get_num_threads omp_get_max_threads omp_get_num_procs omp_in_parallel
    omp_get_level omp_get_dynamic omp_get_wtime GOMP_parallel
    GOMP_barrier GOMP_critical_start GOMP_critical_end GOMP_critical_name_start GOMP_critical_name_end
    GOMP_atomic_start GOMP_atomic_end GOMP_single_start GOMP_single_copy_start GOMP_single_copy_end
    GOMP_ordered_start GOMP_ordered_end GOMP_sections_start GOMP_sections_next GOMP_sections_end
    GOMP_sections_end_nowait GOMP_parallel_sections GOMP_loop_end GOMP_loop_end_nowait
""".split())
OPENMP_FAMILIES = ("GOMP_loop_", "GOMP_parallel_loop_")
OPENMP_SPLIT_STARTS = re.compile(r"GOMP_parallel\w*_start$")

# The C library a kernel's host code uses: memory, strings, formatted output
# to stdout/stderr, math, errors and assertions, clocks read, mutexes and
# thread-local keys, the C++ runtime's support; `syscall` as a function,
# which CUDA 13's headers reference in an honest build (the sandbox's
# seccomp filter guards the calls; raw instructions are refused below);
# `exit`, which nvcc's host-side copy of a __device__ function holding
# inline assembly calls (ending the process early is a crash, no verdict);
# `atexit`, which nvcc's registration stub in every CUDA object calls (to
# unregister its fat binary; in the linked library it is libc_nonshared's
# wrapper of __cxa_atexit, allowed as such: the candidate worker leaves by
# os._exit, which runs no handler).
_MATH = """acos asin atan atan2 cos sin tan cosh sinh tanh acosh asinh atanh exp exp2 expm1 log log2 log10
    log1p logb ilogb pow sqrt cbrt hypot fabs floor ceil trunc round lround llround rint lrint llrint
    nearbyint fmod remainder remquo copysign nextafter fma fmax fmin fdim erf erfc lgamma tgamma frexp
    ldexp modf scalbn scalbln sincos nan exp10""".split()
LIBC = frozenset("""
    malloc calloc realloc free aligned_alloc posix_memalign memalign malloc_usable_size
    memcpy memmove memset memcmp memchr strlen strnlen strcmp strncmp strcpy strncpy strcat strncat strchr
    strrchr strstr strdup strndup strtol strtoul strtoll strtoull strtod strtof strtold atoi atol atoll atof
    strerror strerror_r strspn strcspn strpbrk strtok strtok_r toupper tolower isalpha isdigit isspace
    sscanf __isoc99_sscanf __isoc23_sscanf __isoc23_strtol __isoc23_strtoul __isoc23_strtoll __isoc23_strtoull
    __ctype_b_loc __ctype_tolower_loc __ctype_toupper_loc __errno_location
    printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf puts fputs fputc putc putchar fwrite
    fflush stdout stderr __printf_chk __fprintf_chk __sprintf_chk __snprintf_chk __vsnprintf_chk
    __vfprintf_chk __vsprintf_chk __memcpy_chk __memmove_chk __memset_chk __strcpy_chk __strncpy_chk
    __strcat_chk __stack_chk_fail __assert_fail abort exit atexit qsort bsearch abs labs llabs div ldiv rand
    clock clock_gettime time gettimeofday nanosleep usleep sched_yield sysconf get_nprocs getenv
    secure_getenv syscall
    pthread_mutex_init pthread_mutex_destroy pthread_mutex_lock pthread_mutex_trylock pthread_mutex_unlock
    pthread_mutexattr_init pthread_mutexattr_destroy pthread_mutexattr_settype pthread_once
    pthread_key_create pthread_key_delete pthread_getspecific pthread_setspecific pthread_self pthread_equal
    pthread_cond_init pthread_cond_destroy pthread_cond_wait pthread_cond_timedwait pthread_cond_signal
    pthread_cond_broadcast pthread_rwlock_init pthread_rwlock_destroy pthread_rwlock_rdlock
    pthread_rwlock_wrlock pthread_rwlock_unlock pthread_spin_init pthread_spin_lock pthread_spin_unlock
    pthread_spin_destroy
    __tls_get_addr __libc_single_threaded __gmon_start__ _ITM_deregisterTMCloneTable
    _ITM_registerTMCloneTable __gxx_personality_v0 __dynamic_cast __cxa_finalize
""".split() + _MATH + [m + "f" for m in _MATH] + [m + "l" for m in _MATH]
    + ["__%s_finite" % m for m in _MATH] + ["__%sf_finite" % m for m in _MATH]
    + "__isnan __isnanf __isinf __isinff __finite __finitef __signbit __signbitf __fpclassify".split()
    # libgcc's arithmetic helpers (complex products, 128-bit division, powers).
    + """__mulsc3 __muldc3 __divsc3 __divdc3 __udivti3 __umodti3 __divti3 __modti3 __floattidf __floattisf
    __fixdfti __fixsfti __fixunsdfti __powisf2 __powidf2 __popcountdi2 __clzdi2 __ctzdi2""".split())
LIBC_FAMILIES = ("__cxa_", "_Unwind_")

# C++ names by the scope that declares them (the first name after `_Z`):
# the standard library and its ABI, torch (at, c10, torch, caffe2), pybind11,
# CUDA's C++ libraries (cuda::std, cub, thrust).
CXX_SCOPES = frozenset(("std", "__gnu_cxx", "__cxxabiv1", "at", "c10", "torch", "caffe2", "pybind11",
                        "cuda", "cub", "thrust", "operator", "builtin"))
# Of those, what starts threads or work outside the call, writes files,
# reseeds generators, captures graphs, runs TorchScript, sets dispatch-key and
# Python-mode state or registers operators (demangled, matched as
# substrings). torch's setters and hooks are judged as families below.
FORBIDDEN_CXX = (
    "std::thread", "std::jthread", "std::filesystem::", "basic_ofstream", "basic_fstream",
    "basic_ifstream", "basic_filebuf", "std::__basic_file", "ThreadPool", "at::launch(",
    "at::intraop_launch", "getStreamFromExternal", "manual_seed", "CUDAGraph", "torch::jit::",
    "c10::impl::tls_set_dispatch_key", "PythonTorchFunctionTLS", "TorchDispatchModeTLS",
    "PythonDispatcherTLS", "c10::impl::PythonOpRegistrationTrampoline", "torch::utils::cuda_lazy_init",
    # Operator registration (TORCH_LIBRARY_IMPL(aten, ...) replaces torch's own kernels).
    "torch::Library", "TorchLibraryInit", "c10::RegisterOperators", "c10::Dispatcher::register",
)
# Allowed although their scope's rule would refuse them.
CXX_EXCEPTIONS = ("std::thread::hardware_concurrency()",)

# torch's own scopes. There, an entity (function or object) that changes the
# process's state or hands torch code to run later is refused by the family
# of its own name: the last component of its qualified name, template
# arguments and leading underscores dropped (`torch_entity`).
TORCH_SCOPES = frozenset(("at", "c10", "torch", "caffe2"))
# Setters: at::Context's (setQEngine, setBenchmarkCuDNN, setDeterministic*,
# setLinalgPreferredBackend, setDefaultMobileCPUAllocator, unset*, the
# TF32/precision ones), c10::SetAllocator, SetCPUAllocator, SetAPIUsageLogger
# and the other *UsageLogger setters, set_warning_handler, set_num_threads,
# a DispatchStub's set_cuda_dispatch_ptr, a generator's set_current_seed.
TORCH_SETTER = re.compile(r"(?:set|Set|unset|Unset)(?:[A-Z_]|$)")
TORCH_HOOK_FAMILIES = re.compile(r"""
      (?:register|Register)          # registration: registerKernel, _register_hook, RegisterOperators
    | \w*Registry$                   # registries: FreeCudaMemoryCallbacksRegistry (REGISTER_FREE_MEMORY_CALLBACK)
    | (?:add|remove|clear)\w*Callback # RecordFunction callbacks: addGlobalCallback, addThreadLocalCallback
    | (?:enable|disable)(?:[A-Z_]|$)  # switches: enableRecordFunction
    | \w*Observer                    # attachOutOfMemoryObserver
    | get\w*Hooks(?:Interface)?$     # device hook tables: getCUDAHooks() holds NVRTC (a67) and cuFFT plan-cache setters
    | \w*_stub$                      # DispatchStub objects: threshold_stub (set_cuda_dispatch_ptr, REGISTER_*_DISPATCH)
""", re.X)
# And anywhere in the qualified name: dispatch stubs, NVRTC and torch's
# runtime compiler (code built and launched at run time), the caching
# allocators' settings.
TORCH_HOOK_PARTS = ("DispatchStub", "NVRTC", "nvrtc", "at::cuda::jit::", "c10::CachingAllocator::",
                    "CUDACachingAllocator::")
# Honest exceptions. Read from real builds: what torch's inline guards and
# helpers import. CUDAGuard/OptionalCUDAGuard set the device (SetDevice,
# MaybeSetDevice) and, in torch 2.x, reference setCurrentCUDAStream and
# getStreamFromPool through CUDAGuardImpl's vtable (1.13's vtable also
# references the caching allocator's recordStream); NoGradGuard and
# InferenceMode set thread-local modes they restore; at::parallel_for sets
# its worker's thread number; autograd::Function::apply sets
# SavedTensorDefaultHooks' tracing flag; raw_alloc/raw_delete reach the
# caching allocator's object (torch 2.x) or its entry points (1.13). By the
# same reading of torch's headers: set_device and SetTargetDevice (CUDA's
# device guards), NoNamesGuard's mode, a C++ module's own parameters,
# buffers and submodules.
TORCH_HONEST = frozenset((
    "c10::cuda::SetDevice", "c10::cuda::MaybeSetDevice", "c10::cuda::set_device", "c10::cuda::SetTargetDevice",
    "c10::cuda::setCurrentCUDAStream", "c10::GradMode::set_enabled", "c10::AutogradState::set_tls_state",
    "at::NamesMode::set_enabled", "at::internal::set_thread_num", "at::SavedTensorDefaultHooks::set_tracing",
    "c10::cuda::CUDACachingAllocator::allocator", "c10::cuda::CUDACachingAllocator::get",
    "c10::cuda::CUDACachingAllocator::raw_alloc", "c10::cuda::CUDACachingAllocator::raw_alloc_with_stream",
    "c10::cuda::CUDACachingAllocator::raw_delete", "c10::cuda::CUDACachingAllocator::recordStream",
    "torch::nn::Module::register_parameter", "torch::nn::Module::register_buffer", "torch::nn::Module::register_module",
))
# Classes whose setters change one object: a tensor (any *TensorImpl), its
# storage, a TensorIterator and its configuration, an autograd context, a
# small vector.
TORCH_OBJECTS = frozenset(("at::TensorBase", "at::Tensor", "c10::StorageImpl", "c10::Storage", "at::TensorIterator",
                           "at::TensorIteratorBase", "at::TensorIteratorConfig", "torch::autograd::AutogradContext",
                           "c10::SmallVectorBase"))
# torch's `set_` operator (Tensor.set_, set_data) as its backends' functions
# spell it (at::cpu::set_, at::native::set_data, at::compositeexplicitautograd::set_out).
TORCH_SET_OPERATOR = re.compile(r"set(?:_|__symint|_data|_symint)?(?:_outf?)?$")

# x86-64 and AArch64 system-call instructions, as objdump names them.
SYSCALL_MNEMONICS = frozenset(("syscall", "sysenter", "svc"))
SYSCALL_INTERRUPTS = frozenset(("$0x80", "0x80"))
# Instructions that load the floating-point control state (rounding,
# flush-to-zero, denormals-are-zero: `_mm_setcsr`, inline `ldmxcsr`), which
# would change how every later computation of the thread rounds, torch's
# included, with no import: x87 and SSE control words, whole FPU/extended
# states restored, and AArch64's FPCR/FPSR written. Compilers emit none of
# them for a kernel's code (libm's fesetenv is an import, refused above).
FP_CONTROL_MNEMONICS = frozenset(("ldmxcsr", "vldmxcsr", "fldcw", "fldenv", "frstor", "fxrstor", "fxrstor64",
                                  "xrstor", "xrstor64", "xrstors", "xrstors64"))
FP_CONTROL_REGISTERS = ("fpcr", "fpsr")


# The tools, found once when the worker starts (before any candidate code
# could change PATH).
TOOLS = {name: shutil.which(name) or name for name in ("nm", "c++filt", "objdump")}


def _listed_symbols(path, *options):
    """The symbols `nm` lists of `path` with `options`, versions stripped."""
    listed = subprocess.run([TOOLS["nm"], *options, path], capture_output=True, text=True)
    if listed.returncode != 0:
        raise RuntimeError(f"{path}: nm could not list its symbols: {listed.stderr.strip()}")
    return {line.split()[-1].split("@")[0] for line in listed.stdout.splitlines()
            if line.split() and not line.endswith(":")}


# Symbols the linker itself defines in every shared library it makes.
LINKER_DEFINED = frozenset({"_GLOBAL_OFFSET_TABLE_", "_DYNAMIC", "__dso_handle", "__TMC_END__"})


def object_imports(objects):
    """What the object files `objects` (one library's translation units)
    import from outside themselves and the linker."""
    undefined, defined = set(), set()
    for path in objects:
        undefined |= _listed_symbols(path, "--undefined-only")
        defined |= _listed_symbols(path, "--defined-only", "--extern-only")
    return undefined - defined - LINKER_DEFINED


@functools.lru_cache(maxsize=None)
def static_runtime_imports(compiler):
    """What the static C++ runtime archives of `compiler` (a command line, as
    $CXX holds it) import; empty where it has none."""
    found = set()
    for archive in ("libstdc++.a", "libsupc++.a", "libgcc.a", "libgcc_eh.a"):
        try:
            asked = subprocess.run([*shlex.split(compiler), f"-print-file-name={archive}"], capture_output=True,
                                   text=True)
        except OSError:
            return frozenset()
        path = asked.stdout.strip()
        if asked.returncode == 0 and os.path.isabs(path) and os.path.isfile(path):
            found |= _listed_symbols(path, "--undefined-only")
    return frozenset(found)


def undefined_symbols(library):
    """The undefined dynamic symbols of a shared library, versions stripped."""
    return _listed_symbols(library, "-D", "--undefined-only")


def demangled(names):
    """{mangled: demangled} for C++ names, by one call of c++filt."""
    names = sorted(names)
    if not names:
        return {}
    run = subprocess.run([TOOLS["c++filt"]], input="\n".join(names) + "\n", capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"c++filt could not demangle: {run.stderr.strip()}")
    lines = run.stdout.splitlines()
    return dict(zip(names, lines)) if len(lines) == len(names) else {name: name for name in names}


_SUBSTITUTIONS = {"St": "std", "Sa": "std", "Sb": "std", "Ss": "std", "Si": "std", "So": "std", "Sd": "std"}


def cxx_scope(mangled):
    """The outermost name declaring a mangled C++ entity: "std" for
    `_ZNSt6thread...` and `_ZSt4cout`, "at" for `_ZN2at6launch...`,
    "operator" for `_Znwm`; for vtables, type infos and guard variables,
    the scope of their type; "builtin" for a builtin type's type info; None
    when it cannot be read."""
    rest = mangled[2:]
    if rest.startswith(("TV", "TI", "TS", "TT", "Th", "Tv", "GV", "GR", "TH", "TW")):
        rest = rest[2:]
        if re.fullmatch(r"P?K?[a-z]", rest):  # typeinfo for bool, char const*, ...
            return "builtin"
    rest = re.sub(r"^Z?N?[rVKO]*", "", rest)  # a local entity (Z), a nested name (N), qualifiers
    if rest[:2] in _SUBSTITUTIONS:
        return _SUBSTITUTIONS[rest[:2]]
    if rest[:2] in ("nw", "na", "dl", "da"):
        return "operator"
    match = re.match(r"L?(\d+)", rest)
    if match:
        length = int(match.group(1))
        start = match.end()
        return rest[start:start + length]
    return None


# What a demangled special name is for: "vtable for X", "guard variable for
# X", "non-virtual thunk to X(...)", ...
_SPECIAL_NAME = re.compile(r"^(?:(?:vtable|VTT|typeinfo|typeinfo name|guard variable|TLS init function|"
                           r"TLS wrapper function|construction vtable|reference temporary #\d+|transaction clone|"
                           r"(?:non-virtual |virtual |covariant return )?thunk) (?:for|to) )+")
_OPERATOR = re.compile(r"operator\s*(?:<<=|>>=|<=>|<<|>>|<=|>=|->\*|->|<|>|\(\)|\[\])")


def torch_entity(text):
    """The qualified name of the entity a demangled C++ name declares, its
    template arguments, parameters, return type and ABI tags dropped:
    "at::TensorBase::data_ptr" for `float* at::TensorBase::data_ptr<float>()
    const`, "c10::WarningHandler" for `vtable for c10::WarningHandler`."""
    text = _SPECIAL_NAME.sub("", text)
    text = re.sub(r"\[abi:\w+\]", "", text)
    text = _OPERATOR.sub("operator", text)  # its brackets are no template's or parameters'
    while True:
        inner = re.sub(r"<[^<>]*>", "", text)
        if inner == text:
            break
        text = inner
    text = text.replace("(anonymous namespace)", "{anonymous}")
    pointer = re.search(r"\(\*+\s*([\w:~{}]+)\(", text)  # a function returning a function pointer
    if pointer:
        return pointer.group(1)
    words = text.split("(", 1)[0].split()
    return words[-1] if words else text


def torch_state_change(text):
    """Whether a demangled name of torch's scopes is one of the families that
    change the process's state or hand torch code to run later
    (TORCH_SETTER, TORCH_HOOK_FAMILIES, TORCH_HOOK_PARTS), and no honest
    exception (TORCH_HONEST, the setters of TORCH_OBJECTS)."""
    entity = torch_entity(text)
    if entity in TORCH_HONEST:
        return False
    owner, _, name = entity.rpartition("::")
    name = name.lstrip("_")
    one_object = owner in TORCH_OBJECTS or owner.endswith("TensorImpl")
    if TORCH_SETTER.match(name):
        operator = owner.startswith("at::") and TORCH_SET_OPERATOR.match(name)
        return not (one_object or operator)
    if one_object and name.startswith(("register", "Register")):  # a hook on one tensor: Tensor::register_hook
        return False
    return bool(TORCH_HOOK_FAMILIES.match(name)) or any(part in entity for part in TORCH_HOOK_PARTS)


def _python_allowed(symbol):
    if symbol in PYTHON_BINDING_CALLS:
        return True
    return symbol.startswith(PYTHON_FAMILIES) and symbol not in FORBIDDEN_PYTHON


def _c_allowed(symbol):
    if symbol in LIBC or symbol.startswith(LIBC_FAMILIES):
        return True
    if (symbol in OPENMP or symbol.startswith(OPENMP_FAMILIES)) and not OPENMP_SPLIT_STARTS.match(symbol):
        return True
    if symbol in CUDA_RUNTIME or symbol.startswith(CUDA_REGISTRATION) or symbol.startswith(CUDA_LIBRARY_FAMILIES):
        return True
    return _python_allowed(symbol)


def refused_symbols(symbols):
    """The symbols of `symbols` (undefined dynamic symbols of one library)
    that a candidate's extension may not import, sorted."""
    cxx = [s for s in symbols if s.startswith("_Z")]
    names = demangled(cxx)
    refused = [s for s in symbols if not s.startswith("_Z") and not _c_allowed(s)]
    for symbol in cxx:
        text = names.get(symbol, symbol)
        if text.startswith(CXX_EXCEPTIONS):
            continue
        scope = cxx_scope(symbol)
        if scope not in CXX_SCOPES or any(bad in text for bad in FORBIDDEN_CXX):
            refused.append(symbol)
        elif scope in TORCH_SCOPES and torch_state_change(text):
            refused.append(symbol)
    return sorted(refused)


def forbidden_instructions(library):
    """Each system-call instruction and each load of the floating-point
    control state in the library's executable sections, as "address:
    instruction" (objdump -d reads them; data sections are not code and are
    not disassembled)."""
    listed = subprocess.run([TOOLS["objdump"], "-d", "--no-show-raw-insn", "-w", library], capture_output=True,
                            text=True)
    if listed.returncode != 0:
        raise RuntimeError(f"{library}: objdump could not disassemble it: {listed.stderr.strip()}")
    found = []
    for line in listed.stdout.splitlines():
        address, tab, instruction = line.partition(":\t")
        if not tab or not address.strip() or not all(c in "0123456789abcdef" for c in address.strip()):
            continue
        words = instruction.split()
        if not words:
            continue
        mnemonic, operands = words[0], words[1:]
        system_call = mnemonic in SYSCALL_MNEMONICS or (mnemonic == "int" and operands[:1] and
                                                        operands[0] in SYSCALL_INTERRUPTS)
        fp_control = mnemonic in FP_CONTROL_MNEMONICS or (
            mnemonic == "msr" and operands and operands[0].split(",")[0].lower() in FP_CONTROL_REGISTERS)
        if system_call or fp_control:
            found.append(f"{address.strip()}: {' '.join(words)}")
    return found


def refusals(library, objects=(), compiler="c++"):
    """Why `library` may not be loaded: its refused imports, then
    "instruction at <address>: <instruction>" for each raw system call or
    floating-point control load; empty when none. `objects`: the object
    files it was linked from, when at hand, and `compiler` the one that
    linked it (the module's docstring: a C++ runtime linked statically)."""
    imports = undefined_symbols(library)
    found = refused_symbols(imports)
    if found and objects:
        runtime = static_runtime_imports(compiler)
        found = refused_symbols(object_imports(objects) | {name for name in imports if name not in runtime})
    found += [f"instruction at {where}" for where in forbidden_instructions(library)]
    return found
