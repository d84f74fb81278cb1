// The rule table and its matchers. Name lists hold qualified names (aliases
// are resolved first): an entry matches itself and everything under it
// ("gc" matches "gc.get_objects"); an entry ending in '*' matches any name
// that starts with it ("os.spawn*" matches "os.spawnv").
#include "rules.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_set>
#include <vector>

#include "grammar.h"
#include "native_source.h"

namespace kmem::check_internal {
namespace {

using Names = std::span<const std::string_view>;

constexpr std::string_view kThreadNames[] = {
    "threading.*", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess", "signal",
    "pty", "os.fork", "os.forkpty", "os.register_at_fork", "os.system", "os.popen", "os.spawn*",
    "os.exec*", "os.posix_spawn*", "torch.multiprocessing", "torch.jit.fork", "torch.jit._fork",
    "torch.futures", "torch.distributed", "torch.utils.data", "os.kill", "os.killpg", "os.abort",
    "os.sys", "os.wait*", "os.setsid", "os.setpgid", "os.pidfd*", "os.unshare", "os.setns",
    "os.sched_set*", "os.setpriority", "os.nice", "os.plock", "os.startfile", "torch.utils.collect_env",
    "torch.utils.data"};
// What `threading` offers that starts nothing: locks and
// other synchronisation objects, thread ids.
constexpr std::string_view kThreadAllowed[] = {
    "threading.Lock", "threading.RLock", "threading.get_ident",
    "threading.get_native_id", "threading.local", "threading.Event", "threading.Condition",
    "threading.Semaphore", "threading.BoundedSemaphore", "threading.TIMEOUT_MAX"};
// Native identifiers (C++/CUDA sources) that start threads or processes or
// signal them; a call of the libc names (`fork(`), the others wherever named.
constexpr std::string_view kThreadStrings[] = {"pthread_create", "std::async", "std::jthread",
                                               "at::launch", "std::launch", "boost::thread",
                                               "at::intraop_launch", "launch_no_thread_state",
                                               "c10::ThreadPool", "TaskThreadPool", "torch::jit::fork",
                                               "std::packaged_task"};
constexpr std::string_view kProcessCalls[] = {
    "fork", "vfork", "clone", "clone3", "system", "popen", "execv", "execve", "execvp", "execvpe",
    "execl", "execle", "execlp", "posix_spawn", "posix_spawnp", "kill", "killpg", "tgkill",
    "signal", "sigaction", "ptrace", "setsid", "daemon", "dlopen", "dlsym", "mprotect", "syscall",
    "process_vm_readv", "process_vm_writev", "pthread_kill", "raise", "sigqueue", "tkill",
    "prctl", "unshare", "setns", "execveat", "fexecve", "dlmopen", "pthread_sigqueue", "setpgid",
    "mmap", "memfd_create", "__libc_fork", "_Fork", "__clone", "__libc_system", "pthread_atfork",
    "cudaLaunchHostFunc", "cudaStreamAddCallback", "cuLaunchHostFunc", "cuStreamAddCallback"};
// Of kProcessCalls, names an honest kernel may use for something else (a
// variable `signal`, `x.clone()`): matched only where called, taken by
// address, named in a #define or passed as a macro argument. The others
// match wherever named.
constexpr std::string_view kProcessWords[] = {"system", "signal", "kill", "raise", "clone", "daemon"};
// Raw system calls in host assembly.
constexpr std::string_view kSyscallInstructions[] = {"syscall", "sysenter", "int $0x80", "int 0x80"};
// Native calls that write, move or remove files (the evaluator's cache among them).
constexpr std::string_view kFileWriteCalls[] = {"fopen", "freopen", "creat", "rename", "unlink",
                                                "truncate", "ftruncate", "open", "openat", "symlink",
                                                "link", "mkstemp", "write", "pwrite", "dup2", "dup3"};
constexpr std::string_view kFileWriteStrings[] = {"std::ofstream", "std::fstream", "ofstream", "fstream"};
// Native calls and types that read files by path (/proc among them).
constexpr std::string_view kFileReadCalls[] = {"fopen", "freopen", "open", "openat", "opendir", "readlink"};
constexpr std::string_view kFileReadStrings[] = {"std::ifstream", "std::fstream", "ifstream", "fstream"};
// Native functions a candidate must not define: they would stand in for the
// timer's or the runtime's own (symbol interposition).
constexpr std::string_view kInterposedFunctions[] = {
    "cudaEventElapsedTime", "cudaEventRecord", "cudaEventSynchronize", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cuEventElapsedTime", "cuEventRecord", "cudaLaunchKernel",
    "clock_gettime", "gettimeofday", "cudaEventQuery", "cuEventSynchronize"};

constexpr std::string_view kStreamNames[] = {
    "torch.cuda.Stream", "torch.cuda.stream", "torch.cuda.ExternalStream", "torch.cuda.set_stream",
    "torch.cuda.StreamContext", "torch.cuda.streams", "torch.Stream", "torch.stream",
    "cupy.cuda.Stream", "cupy.cuda.ExternalStream", "numba.cuda.stream", "torch.accelerator.set_stream",
    "torch.cuda.graph", "torch.cuda.CUDAGraph"};
constexpr std::string_view kStreamStrings[] = {
    "cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority",
    "cuStreamCreate", "cuStreamCreateWithPriority", "getStreamFromPool", "cudaStreamPerThread",
    "CU_STREAM_PER_THREAD", "cudaStreamNonBlocking", "CU_STREAM_NON_BLOCKING",
    "getStreamFromExternal", "cudaGraphLaunch", "cuLaunchKernel", "setCurrentCUDAStream",
    "cudaStreamBeginCapture", "cudaStreamBeginCaptureToGraph", "cuStreamBeginCapture",
    "cudaGraphInstantiate", "cuGraphLaunch", "CUDAMultiStreamGuard"};
// Flags of nvcc or the driver that put kernels on per-thread streams.
constexpr std::string_view kStreamFlags[] = {"per-thread", "per_thread", "CUDA_API_PER_THREAD_DEFAULT_STREAM"};

constexpr std::string_view kPatchingNames[] = {
    "builtins", "__builtin__", "__builtins__", "importlib", "sys.modules", "sys.meta_path",
    "unittest.mock", "mock", "torch.library", "torch.overrides", "torch.utils._python_dispatch",
    "vars", "globals", "kmem_worker", "functools.update_wrapper", "os.sys", "sys.modules",
    "locals", "__loader__", "__spec__", "sys.path", "sys.path_hooks", "sys.path_importer_cache",
    "time.clock_settime*", "time.tzset", "sys.setswitchinterval", "sys.setdlopenflags"};
constexpr std::string_view kPatchingAttributes[] = {"__dict__", "__setattr__", "__delattr__",
                                                    "__getattribute__", "__builtins__",
                                                    "__torch_function__", "__torch_dispatch__"};
// What writes, moves or removes files (the evaluator's cache among them).
constexpr std::string_view kFileWriteNames[] = {
    "os.remove", "os.unlink", "os.rename", "os.renames", "os.replace", "os.rmdir", "os.removedirs",
    "os.truncate", "os.ftruncate", "os.write", "os.pwrite", "os.writev", "os.pwritev", "os.dup",
    "os.dup2", "os.close", "os.closerange", "os.fdopen", "os.link", "os.symlink", "os.chmod",
    "os.chown", "os.lchown", "os.utime", "os.mkfifo", "os.mknod", "os.sendfile", "os.copy_file_range",
    "os.splice", "os.memfd_create", "os.putenv", "torch.save", "numpy.save", "numpy.savez",
    "numpy.savez_compressed", "numpy.savetxt", "numpy.memmap", "os.open", "torch.jit.save",
    "torch.onnx", "torch.export.save"};
// Methods that write files.
constexpr std::string_view kFileWriteMethods[] = {"tofile", "export_chrome_trace", "export_stacks",
                                                  "export_memory_timeline"};
// Functions that open a file by its path (first argument).
constexpr std::string_view kFileOpeners[] = {"open", "os.open", "torch.from_file", "numpy.fromfile",
                                             "numpy.loadtxt", "numpy.genfromtxt", "os.listdir",
                                             "os.scandir", "os.walk", "os.readlink", "os.stat",
                                             "os.lstat", "os.fdopen"};

constexpr std::string_view kIntrospectionNames[] = {
    "gc", "inspect", "ctypes", "_ctypes", "cffi", "traceback", "tracemalloc", "dis", "mmap",
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.exc_info",
    "sys.getrefcount", "sys.setrecursionlimit", "sys.addaudithook", "os.sys", "sys.monitoring",
    "sys.remote_exec", "sys.call_tracing", "numpy.ctypeslib", "torch.cuda.cudart",
    "sys.last_traceback", "sys.last_value", "sys.last_type", "sys.last_exc", "sys.exception"};
constexpr std::string_view kIntrospectionAttributes[] = {
    "f_back", "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "gi_frame", "cr_frame",
    "ag_frame", "__globals__", "__code__", "__closure__", "__subclasses__", "__bases__", "__base__",
    "__mro__", "__self__", "__func__"};
constexpr std::string_view kIntrospectionPaths[] = {"/proc", "/dev", "/sys"};

constexpr std::string_view kFallbackNames[] = {"contextlib"};

constexpr std::string_view kSeedNames[] = {
    "torch.manual_seed", "torch.seed", "torch.initial_seed", "torch.get_rng_state",
    "torch.set_rng_state", "torch.random", "torch.default_generator", "torch.cuda.manual_seed",
    "torch.cuda.manual_seed_all", "torch.cuda.seed", "torch.cuda.seed_all",
    "torch.cuda.initial_seed", "torch.cuda.get_rng_state", "torch.cuda.get_rng_state_all",
    "torch.cuda.set_rng_state", "torch.cuda.set_rng_state_all", "torch.cuda.random",
    "torch.cuda.default_generators", "torch.Generator", "torch.cuda.Generator",
    "torch.cuda.graphs", "torch.cuda.graph_pool_handle", "random.seed", "random.getstate", "random.setstate",
    "numpy.random.seed", "numpy.random.get_state", "numpy.random.set_state"};

// Native access to torch's generators and their state.
constexpr std::string_view kSeedStrings[] = {"getDefaultCUDAGenerator", "getDefaultCPUGenerator",
                                             "defaultGenerator", "philox_cuda_state", "set_current_seed",
                                             "torch::manual_seed", "at::manual_seed",
                                             "torch::cuda::manual_seed", "torch::cuda::manual_seed_all",
                                             "createCUDAGenerator"};

constexpr std::string_view kPrecisionNames[] = {
    "torch.float16", "torch.half", "torch.bfloat16", "torch.HalfTensor", "torch.BFloat16Tensor",
    "torch.cuda.HalfTensor", "torch.cuda.BFloat16Tensor", "torch.set_float32_matmul_precision",
    "torch.autocast", "torch.amp", "torch.cuda.amp", "torch.cpu.amp",
    "torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.fp32_precision", "torch.backends.cudnn.fp32_precision",
    "torch.backends.fp32_precision", "triton.language.float16", "triton.language.bfloat16",
    "triton.language.float8*", "numpy.float16", "numpy.half", "torch.float8*", "torch.cuda.amp",
    "torch.set_default_dtype", "torch.set_autocast*", "torch.float8_e4m3fn", "torch.float8_e5m2",
    "triton.language.dot_scaled", "triton.language.float8e*", "triton.language.fp8*",
    "torch.set_float32_matmul_precision", "torch.backends.cudnn.conv", "torch.backends.cudnn.rnn",
    "torch.backends.mkldnn.matmul", "torch.backends.mkldnn.conv", "torch.backends.mkldnn.rnn",
    "torch.backends.mkldnn.fp32_precision", "torch.backends.mkldnn.allow_tf32",
    "torch.backends.cudnn.flags", "torch.backends.mkldnn.flags", "triton.language.dtype",
    "triton.language.core.dtype"};
constexpr std::string_view kPrecisionMethods[] = {"half", "bfloat16"};
// Native identifiers of reduced-precision types and math (after comments are dropped).
constexpr std::string_view kPrecisionStrings[] = {
    "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162", "__nv_fp8_e4m3", "__nv_fp8_e5m2",
    "precision::tf32", "wmma::precision::tf32", "__float2half", "__float2bfloat16", "half2",
    "at::Half", "at::BFloat16", "c10::Half", "c10::BFloat16", "kHalf", "kBFloat16", "kFloat16",
    "nvcuda::wmma", "mma_sync", "__hmul", "__hadd", "__hfma", "__half2float", "__float2half_rn",
    "__nv_fp8_storage_t", "__nv_fp8x2_e4m3", "CUBLAS_TF32_TENSOR_OP_MATH", "CUBLAS_TENSOR_OP_MATH",
    "CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_COMPUTE_32F_FAST_16F", "CUBLAS_COMPUTE_32F_FAST_16BF",
    "CUBLAS_COMPUTE_16F", "CUDA_R_16F", "CUDA_R_16BF", "CUDA_R_8F_E4M3", "CUDA_R_8F_E5M2",
    "CUDNN_DATA_HALF", "CUDNN_DATA_BFLOAT16", "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION",
    "CUDNN_TENSOR_OP_MATH", "tf32", "f16", "bf16", "f16x2", "bf16x2", "e4m3", "e5m2",
    "cublasHgemm", "nv_bfloat16", "nv_bfloat162", "_Float16", "__fp16", "__bf16", "__nv_fp8x4_e4m3",
    "__nv_fp8x4_e5m2", "__nv_fp8x2_e5m2", "ScalarType::Half", "ScalarType::BFloat16",
    "ScalarType::Float8_e4m3fn", "ScalarType::Float8_e5m2", "kFloat8_e4m3fn", "kFloat8_e5m2",
    "setAllowTF32CuBLAS", "setAllowTF32CuDNN", "setFloat32MatmulPrecision",
    "setAllowFP16ReductionCuBLAS", "setAllowBF16ReductionCuBLAS", "setFloat32Precision",
    "at::autocast", "torch::autocast", "set_autocast_enabled"};
// Tensor methods of the C++ API that cast to reduced precision (`x.half()`).
constexpr std::string_view kPrecisionNativeMethods[] = {"half", "bfloat16"};
// Flags that set TF32 or other reduced precision: false is the only value a candidate may set.
constexpr std::string_view kPrecisionFlags[] = {
    "torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction"};
// Settings a candidate may set to either value: they change no result.
// Precision settings given by name: only "ieee" and "highest" keep fp32.
constexpr std::string_view kPrecisionSettings[] = {"fp32_precision", "set_float32_matmul_precision"};
constexpr std::string_view kFreeFlags[] = {"torch.backends.cudnn.benchmark",
                                           "torch.backends.cudnn.deterministic",
                                           "torch.backends.cudnn.enabled"};
// Tensor attributes of a submodule of self that a candidate may set
// (`self.linear.bias = None`, `self.bn.weight.data = ...`).
constexpr std::string_view kSubmoduleAttributes[] = {"weight", "bias", "running_mean",
                                                     "running_var", "num_batches_tracked",
                                                     "requires_grad", "data"};

constexpr std::string_view kDynamicCodeNames[] = {"exec", "eval", "compile", "__import__", "runpy",
                                                 "pickle", "marshal", "timeit", "code", "codeop",
                                                 "pkgutil", "types", "shelve",
                                                 "dill", "cloudpickle", "torch.load",
                                                 "torch.jit.load", "torch.package", "breakpoint",
                                                 "help", "cProfile", "profile", "pdb", "bdb",
                                                 "doctest", "trace", "zipimport", "torch.hub",
                                                 "torch.utils.benchmark", "torch.jit.CompilationUnit",
                                                 "torch.ops.load_library", "torch.classes.load_library",
                                                 "torch.utils.cpp_extension.load",
                                                 "numpy.load", "typing.get_type_hints",
                                                 "typing.ForwardRef", "typing.evaluate_forward_ref",
                                                 "typing_extensions.get_type_hints",
                                                 "typing_extensions.ForwardRef",
                                                 "typing_extensions.evaluate_forward_ref",
                                                 "triton.language.inline_asm_elementwise",
                                                 "sys.breakpointhook", "numpy.f2py", "numpy.distutils",
                                                 "numpy.testing.extbuild", "triton.runtime.build"};
// Assembler directives that pull a file or raw bytes into the binary.
constexpr std::string_view kHiddenCodeDirectives[] = {".incbin", ".include", ".byte ", ".byte\t",
                                                      ".quad ", ".ascii", ".section .text", ".globl"};
// Dunder methods that run code where the checker cannot see it called
// (copy, pickle, deepcopy of the output).
constexpr std::string_view kDynamicCodeDunders[] = {"__reduce__", "__reduce_ex__", "__setstate__",
                                                    "__getstate__", "__deepcopy__", "__copy__"};
// Environment variables a candidate may set (build and allocator settings);
// any other may change what the compiler runs or links (CXX, NVCC_PREPEND_FLAGS,
// LD_PRELOAD, PATH, CUDA_HOME), except the precision ones, precision_downcast.
constexpr std::string_view kEnvironmentAllowed[] = {
    "TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "CUDA_LAUNCH_BLOCKING", "TORCH_USE_CUDA_DSA",
    "CUBLAS_WORKSPACE_CONFIG", "PYTORCH_CUDA_ALLOC_CONF", "TORCH_EXTENSIONS_DIR", "OMP_NUM_THREADS",
    "TORCH_SHOW_CPP_STACKTRACES", "PYTORCH_NO_CUDA_MEMORY_CACHING", "CUDA_MODULE_LOADING",
    "TRITON_PRINT_AUTOTUNING", "TRITON_CACHE_DIR", "CUDA_VISIBLE_DEVICES", "MKL_NUM_THREADS",
    "CUDA_DEVICE_MAX_CONNECTIONS"};
constexpr std::string_view kEnvironmentPrecision[] = {"NVIDIA_TF32_OVERRIDE", "TRITON_F32_DEFAULT",
                                                      "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE",
                                                      "TORCH_CUDNN_V8_API_DISABLED"};
// Compiler and linker flags of cpp_extension a candidate may pass (any
// other may load or define code the checker cannot see: -Wl,..., -include,
// -fplugin, a library path, `-DNAME=value` with a value not a number).
constexpr std::string_view kBuildFlags[] = {
    "-O0", "-O1", "-O2", "-O3", "-Ofast", "-g", "-lineinfo", "--use_fast_math", "-use_fast_math",
    "--expt-relaxed-constexpr", "--expt-extended-lambda", "-std=c++14", "-std=c++17",
    "-std=c++20", "-fopenmp", "-march=native", "-mtune=native", "-ffast-math", "-funroll-loops",
    "-w", "-Xptxas", "-v", "-Xptxas=-v", "-Xptxas=-O3", "--ptxas-options=-v", "-Xcompiler",
    "-fPIC", "-lcublas", "-lcublasLt", "-lcudnn", "-lcufft", "-lcusparse", "-lcusolver", "-lcurand",
    "-lcudart", "-lcuda", "-lm", "-lgomp", "-fno-strict-aliasing", "--restrict", "-restrict",
    "-DNDEBUG", "--extended-lambda", "-Wall", "-Wextra", "-res-usage", "--resource-usage",
    "--extra-device-vectorization", "-fno-math-errno", "-O", "-DNDEBUG=1"};
// Flags whose name starts with one of these (architectures, register caps, warnings).
constexpr std::string_view kBuildFlagPrefixes[] = {"-arch=", "-gencode", "--gpu-architecture=",
                                                   "-maxrregcount=", "--maxrregcount=", "-Wno-",
                                                   "arch=", "-code=", "--generate-code=",
                                                   "--ptxas-options=", "-Xptxas=", "-L/usr/",
                                                   "-std=", "--std=", "-U__CUDA_NO_", "-I/usr/",
                                                   "-ftz=", "--ftz=", "-prec-div=", "--prec-div=",
                                                   "-prec-sqrt=", "--prec-sqrt=", "-fmad=", "--fmad=",
                                                   "-DTORCH_EXTENSION_NAME="};
constexpr std::string_view kBuildFlagArguments[] = {"extra_cflags", "extra_cuda_cflags", "extra_ldflags",
                                                    "extra_include_paths"};
// getattr in another form.
constexpr std::string_view kDynamicGetattrNames[] = {"operator.attrgetter", "operator.methodcaller"};

// The modules a candidate may import (and everything under them), except
// private parts (`torch._C`): see docs/verdicts.md. Any other import, a star
// import and a relative import are `forbidden_import`.
constexpr std::string_view kAllowedImports[] = {
    "torch", "triton", "math", "cmath", "typing", "typing_extensions", "functools", "itertools",
    "operator", "collections", "dataclasses", "enum", "abc", "numbers", "__future__", "os",
    "sys", "time", "threading", "numpy", "warnings", "re", "string", "copy", "hashlib",
    "textwrap", "random", "einops"};
// Dunder attributes a candidate may read: `super().__init__`, `torch.__version__`.
constexpr std::string_view kAllowedDunders[] = {"__init__", "__version__", "__name__", "__call__"};
// Dunders a candidate may define: construction, context managers (their
// return judged by try_fallback), containers, comparisons and arithmetic.
constexpr std::string_view kAllowedDunderDefinitions[] = {
    "__init__", "__call__", "__repr__", "__str__", "__enter__", "__exit__", "__post_init__",
    "__len__", "__getitem__", "__setitem__", "__iter__", "__next__", "__contains__", "__eq__",
    "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__", "__add__", "__sub__",
    "__mul__", "__truediv__", "__matmul__", "__neg__", "__radd__", "__rmul__", "__all__",
    "__slots__", "__version__", "__constants__", "__doc__", "__aenter__", "__aexit__"};

bool name_in_exactly(std::string_view name, Names list) {
  return std::any_of(list.begin(), list.end(), [name](std::string_view entry) {
    if (entry.ends_with('*')) return name.starts_with(entry.substr(0, entry.size() - 1));
    return name == entry || (name.starts_with(entry) && name[entry.size()] == '.');
  });
}

// Modules that other modules re-export under their own name
// (`torch.nn.functional.torch`, `os.path.os`, `typing.sys`): a name passing
// through one of them is also read from there on.
constexpr std::string_view kReexportedModules[] = {
    "torch", "os", "sys", "threading", "_thread", "subprocess", "signal", "gc", "inspect", "ctypes",
    "importlib", "builtins", "multiprocessing", "concurrent", "asyncio", "pickle", "marshal",
    "runpy", "time", "functools", "operator", "mmap", "traceback", "contextlib", "types", "code",
    "pkgutil", "warnings", "numpy", "random", "weakref", "io", "shutil", "tempfile", "socket"};
// Submodules that only share a name with a top-level module.
constexpr std::string_view kOwnSubmodules[] = {"torch.signal", "torch.types", "torch.random",
                                               "numpy.random", "torch.functional", "torch.cuda.random"};

bool listed(std::string_view name, Names list);

// The part of `name` that matches `list`: the whole name, or the part from
// a re-exported module on (`torch.cuda.Stream` of
// `torch.nn.functional.torch.cuda.Stream`); empty when none matches.
std::string_view matching_part(std::string_view name, Names list) {
  if (name_in_exactly(name, list)) return name;
  static const std::unordered_set<std::string_view> roots(std::begin(kReexportedModules),
                                                          std::end(kReexportedModules));
  for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
    std::string_view rest = name.substr(dot + 1);
    std::string_view head = rest.substr(0, rest.find('.'));
    if (!roots.contains(head) || listed(name.substr(0, dot + 1 + head.size()), kOwnSubmodules))
      continue;
    if (name_in_exactly(rest, list)) return rest;
  }
  return {};
}

bool name_in(std::string_view name, Names list) { return !matching_part(name, list).empty(); }

bool is_dunder(std::string_view name) {
  return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

bool listed(std::string_view name, Names list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Whether the current node is the target of `= False` (`torch.backends.cudnn.allow_tf32 = False`).
bool assigned_false(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.parent_symbol() != g.assignment) return false;
  TSNode right = field(c.parent(), g.field_right);
  return ts_node_eq(field(c.parent(), g.field_left), c.node()) && !ts_node_is_null(right) &&
         ts_node_symbol(right) == g.false_;
}

// Whether the current node is only compared with (`x.dtype == torch.half`,
// `x.dtype in (torch.float16, torch.bfloat16)`): reading a dtype casts nothing.
bool only_compared(const Context& c) {
  const Grammar& g = c.grammar();
  for (uint32_t up = 1; up < 4; ++up) {
    TSSymbol s = ts_node_symbol(c.ancestor(up));
    if (s == g.comparison_operator) return true;
    static const TSSymbol kSet = python_symbol("set");
    if (s != g.tuple && s != g.list && s != g.parenthesized_expression && s != kSet)
      return false;
  }
  return false;
}

// Imports and references of the names in `list`, except those whose
// matching part is `allowed` (an entry of it or a name under one).
void match_names(const Context& c, Names list, std::vector<Finding>& out, Names allowed = {}) {
  const Grammar& g = c.grammar();
  auto offends = [&](std::string_view name) {
    std::string_view part = matching_part(name, list);
    return !part.empty() && !name_in_exactly(part, allowed);
  };
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& name : c.imported_names()) {
      std::string_view qualified = name.qualified;
      if (qualified.ends_with(".*")) qualified.remove_suffix(2);
      if (offends(qualified)) out.push_back({name.at, std::string(qualified)});
    }
    return;
  }
  const std::string& reference = c.reference_name();
  if (!reference.empty() && offends(reference)) out.push_back({c.node(), reference});
}

// Attribute accesses `x.<name>` for the names in `list`, whatever x is.
void match_attributes(const Context& c, Names list, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().attribute) return;
  TSNode attribute = field(c.node(), c.grammar().field_attribute);
  if (ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (std::find(list.begin(), list.end(), name) != list.end())
    out.push_back({attribute, std::string(name)});
}

// String literals (e.g. CUDA sources) naming one of the identifiers in `list`.
void match_strings(const Context& c, Names list, std::vector<Finding>& out) {
  const std::string& text = c.native_text();
  if (text.empty()) return;
  for (std::string_view token : list)
    if (has_identifier(text, token)) out.push_back({c.node(), std::string(token)});
}

// The value of a string expression made of literals only: a literal, an
// implicit or `+` concatenation, `os.path.join(...)` or `"sep".join([...])`
// of such; nullopt for anything else.
std::optional<std::string> folded_string(const Context& c, TSNode node, int depth = 0) {
  const Grammar& g = c.grammar();
  if (depth > 64 || ts_node_is_null(node)) return std::nullopt;
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string || s == g.concatenated_string) {
    // An f-string's fields are not read here.
    auto interpolated = [&](TSNode string) {
      for (uint32_t i = 0; i < ts_node_named_child_count(string); ++i)
        if (ts_node_symbol(ts_node_named_child(string, i)) == g.interpolation) return true;
      return false;
    };
    if (s == g.string && interpolated(node)) return std::nullopt;
    for (uint32_t i = 0; s == g.concatenated_string && i < ts_node_named_child_count(node); ++i)
      if (interpolated(ts_node_named_child(node, i))) return std::nullopt;
    return python_string_value(c.tree(), node);
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return folded_string(c, ts_node_named_child(node, 0), depth + 1);
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_name(node, "operator", 8);
    if (ts_node_is_null(op) || c.text(op) != "+") return std::nullopt;
    auto left = folded_string(c, field(node, g.field_left), depth + 1);
    auto right = folded_string(c, field(node, g.field_right), depth + 1);
    if (left && right) return *left + *right;
    return std::nullopt;
  }
  if (s != g.call) return std::nullopt;
  TSNode function = field(node, g.field_function);
  TSNode arguments = field(node, g.field_arguments);
  if (ts_node_is_null(function) || ts_node_is_null(arguments)) return std::nullopt;
  std::vector<std::string> parts;
  auto collect = [&](TSNode list) {
    uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n; ++i) {
      auto part = folded_string(c, ts_node_named_child(list, i), depth + 1);
      if (!part) return false;
      parts.push_back(*part);
    }
    return true;
  };
  std::string joined;
  if (c.qualified_name(function) == "os.path.join") {
    if (!collect(arguments)) return std::nullopt;
    for (const std::string& part : parts) {
      if (part.starts_with('/')) joined.clear();
      else if (!joined.empty() && !joined.ends_with('/')) joined.push_back('/');
      joined += part;
    }
    return joined;
  }
  TSNode object;
  std::string_view method;
  if (!c.reads_attribute(function, &object, &method) || method != "join") return std::nullopt;
  auto separator = folded_string(c, object, depth + 1);
  if (!separator || ts_node_named_child_count(arguments) != 1) return std::nullopt;
  TSNode list = ts_node_named_child(arguments, 0);
  if (ts_node_symbol(list) != g.list && ts_node_symbol(list) != g.tuple) return std::nullopt;
  if (!collect(list)) return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i) joined += (i ? *separator : "") + parts[i];
  return joined;
}

// String expressions naming one of the paths in `list`: the path followed by
// the end of the string or a character that cannot continue a name ("/proc/",
// "/proc'"; not "loads/processes"). Literals, concatenations and joins of
// literals are read as their value.
void match_paths(const Context& c, Names list, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSSymbol s = c.symbol();
  if (s != g.string && s != g.concatenated_string && s != g.binary_operator && s != g.call) return;
  if (s == g.string && c.parent_symbol() == g.concatenated_string) return;
  auto value = folded_string(c, c.node());
  if (!value) return;
  std::string_view text = *value;
  auto continues_name = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  for (std::string_view path : list) {
    for (size_t at = text.find(path); at != std::string_view::npos; at = text.find(path, at + 1)) {
      size_t end = at + path.size();
      if (end == text.size() || !continues_name(text[end])) {
        out.push_back({c.node(), std::string(path)});
        break;
      }
    }
  }
}

// The n-th positional argument of the current call (0-based), or null.
TSNode positional_argument(const Context& c, uint32_t index) {
  return c.positional_argument(c.node(), index);
}

// The builtin `name` used as a value rather than called (`map(setattr, ...)`,
// `f = getattr`): whatever it is later called with is out of sight.
bool uncalled_builtin(const Context& c, std::string_view name) {
  if (c.symbol() != c.grammar().identifier || c.reference_name() != name) return false;
  return !(c.parent_symbol() == c.grammar().call &&
           ts_node_eq(field(c.parent(), c.grammar().field_function), c.node()));
}

bool is_setattr_call(const Context& c) {
  const std::string& name = c.callee_name();
  return name == "setattr" || name == "delattr";
}

// The variables the current node writes into os.environ: `os.environ[k] = v`
// (and `+=`, `del`), `os.environ.update(...)`, `os.environ.setdefault(k, v)`;
// a variable named by anything but a plain literal reads as "?".
std::vector<std::pair<TSNode, std::string>> environment_writes(const Context& c) {
  const Grammar& g = c.grammar();
  std::vector<std::pair<TSNode, std::string>> writes;
  auto add = [&](TSNode key) {
    std::string_view literal;
    writes.push_back({key, !ts_node_is_null(key) && c.string_literal(key, &literal) ? std::string(literal) : "?"});
  };
  static const TSSymbol kSubscript = python_symbol("subscript");
  if (c.symbol() == kSubscript) {
    TSNode value = ts_node_child_by_field_name(c.node(), "value", 5);
    TSSymbol parent = c.parent_symbol();
    bool written_to = ((parent == g.assignment || parent == g.augmented_assignment) &&
                       ts_node_eq(field(c.parent(), g.field_left), c.node())) ||
                      parent == g.delete_statement;
    if (written_to && !ts_node_is_null(value) && c.qualified_name(value) == "os.environ")
      add(ts_node_child_by_field_name(c.node(), "subscript", 9));
    return writes;
  }
  if (c.symbol() != g.call) return writes;
  const std::string& callee = c.callee_name();
  if (callee == "os.environ.setdefault") {
    add(positional_argument(c, 0));
  } else if (callee == "os.environ.update") {
    TSNode arguments = c.argument_list(c.node());
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
      TSNode a = ts_node_named_child(arguments, i);
      if (ts_node_symbol(a) == g.keyword_argument) {
        writes.push_back({a, std::string(c.text(field(a, g.field_name)))});
      } else if (static const TSSymbol kDictionary = python_symbol("dictionary"); ts_node_symbol(a) == kDictionary) {
        for (uint32_t j = 0; j < ts_node_named_child_count(a); ++j) {
          TSNode pair = ts_node_named_child(a, j);
          static const TSSymbol kPair = python_symbol("pair");
          add(ts_node_symbol(pair) == kPair ? ts_node_child_by_field_name(pair, "key", 3) : TSNode{});
        }
      } else {
        add(TSNode{});
      }
    }
  }
  return writes;
}

void defines_model(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().class_definition) return;
  TSNode name = field(c.node(), c.grammar().field_name);
  if (!ts_node_is_null(name) && c.text(name) == "Model") out.push_back({name, ""});
}

// Reported at the start of the file (a null node), whatever comes first.
void no_model_new(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() == c.grammar().module && !c.facts().defines_model_new())
    out.push_back({TSNode{}, ""});
}

// `getattr(self, f"fc{i}")`: the method's own attribute by an f-string
// that starts with a public name (so never a dunder or private one).
bool own_submodule_name(const Context& c, TSNode object, TSNode name) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(object) || ts_node_symbol(object) != g.identifier || c.text(object) != "self" ||
      !c.self_is_method_receiver() || ts_node_symbol(name) != g.string)
    return false;
  // The first part after the quote must be literal text starting with a letter.
  uint32_t n = ts_node_named_child_count(name);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(name, i);
    TSSymbol s = ts_node_symbol(part);
    if (s == g.string_content) {
      std::string_view text = c.text(part);
      return !text.empty() && std::isalpha(static_cast<unsigned char>(text.front()));
    }
    if (s == g.interpolation || s == g.escape_sequence) return false;
  }
  return false;
}

// Whether `object` is the method's self and `name` an identifier bound only
// as the target of an enclosing
// loop or comprehension (in the same function) over a literal tuple or list
// of plain public names: `for n in ("q", "k", "v"): getattr(self, n)`.
bool names_from_literal_loop(const Context& c, TSNode object, TSNode name) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(object) || ts_node_symbol(object) != g.identifier || c.text(object) != "self" ||
      !c.self_is_method_receiver() || ts_node_symbol(name) != g.identifier)
    return false;
  std::string_view id = c.text(name);
  if (c.facts().bindings_of(id) != 1) return false;
  auto literal_names = [&](TSNode loop) {
    TSNode left = field(loop, g.field_left);
    TSNode right = field(loop, g.field_right);
    if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_symbol(left) != g.identifier ||
        c.text(left) != id || (ts_node_symbol(right) != g.tuple && ts_node_symbol(right) != g.list))
      return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(right); ++i) {
      std::string_view literal;
      if (!c.string_literal(ts_node_named_child(right, i), &literal) || literal.empty() ||
          !std::isalpha(static_cast<unsigned char>(literal.front())))
        return false;
    }
    return true;
  };
  for (uint32_t up = 1; up < 256; ++up) {
    TSNode a = c.ancestor(up);
    TSSymbol s = ts_node_symbol(a);
    if (s == g.function_definition || s == g.lambda || s == g.class_definition || s == g.module) return false;
    if (s == g.for_statement) {
      if (literal_names(a)) return true;
      continue;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(a); ++i) {  // comprehensions
      TSNode clause = ts_node_named_child(a, i);
      if (ts_node_symbol(clause) == g.for_in_clause && literal_names(clause)) return true;
    }
  }
  return false;
}

// getattr with a name that is not a plain, public literal, with unpacked
// arguments (`getattr(torch, *names)`), or passed around uncalled.
void dynamic_getattr(const Context& c, std::vector<Finding>& out) {
  if (uncalled_builtin(c, "getattr")) out.push_back({c.node(), "getattr"});
  if (c.callee_name() != "getattr") return;
  if (TSNode unpacked = c.unpacked_argument(c.node()); !ts_node_is_null(unpacked)) {
    out.push_back({unpacked, written(c.text(unpacked))});
    return;
  }
  TSNode name = positional_argument(c, 1);
  if (ts_node_is_null(name)) return;
  std::string_view literal;
  if (c.string_literal(name, &literal) && !literal.starts_with('_')) return;
  TSNode object = positional_argument(c, 0);
  if (own_submodule_name(c, object, name) || names_from_literal_loop(c, object, name)) return;
  out.push_back({name, written(c.text(name))});
}

// operator.attrgetter and operator.methodcaller are getattr by another name.
void dynamic_getattr_names(const Context& c, std::vector<Finding>& out) {
  const std::string& reference = c.reference_name();
  if (!reference.empty() && name_in(reference, kDynamicGetattrNames)) out.push_back({c.node(), reference});
}

// setattr/delattr with a name that is not a plain literal, with unpacked
// arguments, or passed around uncalled.
void dynamic_setattr(const Context& c, std::vector<Finding>& out) {
  for (std::string_view builtin : {"setattr", "delattr"})
    if (uncalled_builtin(c, builtin)) out.push_back({c.node(), std::string(builtin)});
  if (!is_setattr_call(c)) return;
  if (TSNode unpacked = c.unpacked_argument(c.node()); !ts_node_is_null(unpacked)) {
    out.push_back({unpacked, written(c.text(unpacked))});
    return;
  }
  TSNode name = positional_argument(c, 1);
  std::string_view literal;
  if (!ts_node_is_null(name) && !c.string_literal(name, &literal) &&
      !own_submodule_name(c, positional_argument(c, 0), name) &&
      !names_from_literal_loop(c, positional_argument(c, 0), name))
    out.push_back({name, written(c.text(name))});
}

// Names CPython would read differently from the checker: it folds non-ASCII
// identifiers to NFKC (`ｇｃ` is gc), the rules match names as written.
void non_ascii_name(const Context& c, std::vector<Finding>& out) {
  // \N{NAME} in a string: Python reads the named character, the checker cannot.
  if (c.symbol() == c.grammar().escape_sequence && c.text(c.node()).starts_with("\\N")) {
    out.push_back({c.node(), "named escape " + written(c.text(c.node()))});
    return;
  }
  if (c.symbol() != c.grammar().identifier) return;
  std::string_view name = c.text(c.node());
  if (std::any_of(name.begin(), name.end(), [](char ch) { return (ch & 0x80) != 0; }))
    out.push_back({c.node(), "non-ASCII name '" + written(name) + "'"});
}

// Whether writing `<object>.<name>` is allowed: only a direct, non-dunder
// attribute of the method's own `self`.
bool own_attribute(const Context& c, TSNode object, std::string_view name) {
  const Grammar& g = c.grammar();
  if (is_dunder(name)) return false;
  if (ts_node_symbol(object) == g.identifier) {
    std::string_view root = c.text(object);
    // self.<x> in a method; ctx.<x> in an autograd.Function's static methods.
    return (root == "self" && c.self_is_method_receiver()) || (root == "ctx" && c.inside_ctx_function());
  }
  // self.<sub>...<weight|bias|...>: a tensor attribute of one's own submodule.
  if (!listed(name, kSubmoduleAttributes)) return false;
  TSNode inner;
  std::string_view inner_name;
  while (ts_node_symbol(object) == g.attribute && c.reads_attribute(object, &inner, &inner_name)) {
    if (is_dunder(inner_name)) return false;
    object = inner;
  }
  return ts_node_symbol(object) == g.identifier && c.text(object) == "self" && c.self_is_method_receiver();
}

// A setting a candidate may write: a precision flag set to False, or a flag
// that changes no result (cudnn.benchmark), set to a boolean.
bool allowed_setting(const Context& c, TSNode target) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.assignment) return false;
  TSNode right = field(c.node(), g.field_right);
  if (ts_node_is_null(right)) return false;
  std::string name = c.qualified_name(target);
  if (listed(name, kPrecisionFlags)) return ts_node_symbol(right) == g.false_;
  std::string_view literal;
  if (name.starts_with("torch.backends.") && name.ends_with(".fp32_precision"))
    return c.string_literal(right, &literal) && literal == "ieee";
  return listed(name, kFreeFlags) && (ts_node_symbol(right) == g.false_ || ts_node_symbol(right) == g.true_);
}

// Every attribute written by a target pattern (through tuples, lists, stars).
void foreign_targets(const Context& c, TSNode target, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  std::vector<TSNode> stack;  // allocates only for groups of targets
  for (TSNode node = target;;) {
    TSSymbol symbol = ts_node_symbol(node);
    if (symbol == g.attribute) {
      TSNode object = field(node, g.field_object);
      TSNode attribute = field(node, g.field_attribute);
      if (!ts_node_is_null(object) && !ts_node_is_null(attribute) &&
          !own_attribute(c, object, c.text(attribute)) && !allowed_setting(c, node))
        out.push_back({node, written(c.text(node))});
    } else if (g.is_target_group(symbol)) {
      uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = n; i-- > 0;) stack.push_back(ts_node_named_child(node, i));
    }
    if (stack.empty()) return;
    node = stack.back();
    stack.pop_back();
  }
}

void foreign_attribute_assignment(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  TSSymbol symbol = c.symbol();
  if (symbol == g.assignment || symbol == g.augmented_assignment || symbol == g.for_statement ||
      symbol == g.for_in_clause) {
    TSNode left = field(node, g.field_left);
    if (!ts_node_is_null(left)) foreign_targets(c, left, out);
  } else if (symbol == g.as_pattern && c.parent_symbol() == g.with_item) {
    TSNode alias = field(node, g.field_alias);
    if (!ts_node_is_null(alias)) foreign_targets(c, alias, out);
  } else if (symbol == g.delete_statement) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) foreign_targets(c, ts_node_named_child(node, i), out);
  } else if (is_setattr_call(c)) {
    TSNode object = positional_argument(c, 0);
    TSNode name = positional_argument(c, 1);
    std::string_view literal;
    if (ts_node_is_null(object) || ts_node_is_null(name) || !c.string_literal(name, &literal)) return;
    if (!own_attribute(c, object, literal))
      out.push_back({node, written(c.text(object)) + "." + std::string(literal)});
  }
}

void uses_threads(const Context& c, std::vector<Finding>& out) {
  match_names(c, kThreadNames, out, kThreadAllowed);
  const std::string& text = c.native_text();
  if (text.empty()) return;
  match_strings(c, kThreadStrings, out);
  if (has_identifier(text, "std::thread", "hardware_concurrency")) out.push_back({c.node(), "std::thread"});
  // `using namespace std;` then `thread t(...)` / `async(...)`.
  if (has_identifier(text, "using namespace std") &&
      ((has_identifier(text, "thread") && !has_identifier(text, "thread::hardware_concurrency")) ||
       has_call(text, "async")))
    out.push_back({c.node(), "thread (using namespace std)"});
  for (std::string_view call : kProcessCalls) {
    bool word = listed(call, kProcessWords);
    if (word ? has_function_use(text, call) : has_free_identifier(text, call))
      out.push_back({c.node(), std::string(call)});
  }
  for (std::string_view instruction : kSyscallInstructions)
    if (instruction.find(' ') != std::string_view::npos ? text.find(instruction) != std::string::npos
                                                         : has_identifier(text, instruction))
      out.push_back({c.node(), std::string(instruction)});
}

void side_stream(const Context& c, std::vector<Finding>& out) {
  match_names(c, kStreamNames, out);
  match_strings(c, kStreamStrings, out);
  const std::string& text = c.native_text();
  for (std::string_view flag : kStreamFlags)
    if (text.find(flag) != std::string::npos) out.push_back({c.node(), std::string(flag)});
}

// Whether the current call opens a file for writing: `open(path, mode)`
// with a mode that is not a plain literal reading only.
bool opens_for_writing(const Context& c) {
  if (c.callee_name() != "open") return false;
  const Grammar& g = c.grammar();
  TSNode mode = positional_argument(c, 1);
  TSNode arguments = c.argument_list(c.node());
  uint32_t n = ts_node_is_null(arguments) ? 0 : ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) == g.keyword_argument && c.text(field(a, g.field_name)) == "mode")
      mode = field(a, g.field_value);
  }
  if (ts_node_is_null(mode)) return !ts_node_is_null(c.unpacked_argument(c.node()));
  std::string_view literal;
  return !c.string_literal(mode, &literal) || literal.find_first_of("wax+") != std::string_view::npos;
}

// The name a definition in a class body or at the top level gives: a def's
// or class's name, or an assignment's single name; empty otherwise.
std::string_view defined_name(const Context& c) {
  const Grammar& g = c.grammar();
  TSNode name;
  if (c.symbol() == g.function_definition) {
    name = field(c.node(), g.field_name);
  } else if (c.symbol() == g.assignment) {
    TSSymbol scope = ts_node_symbol(c.ancestor(3));
    if (scope != g.class_definition && scope != g.module && ts_node_symbol(c.ancestor(2)) != g.module) return {};
    name = field(c.node(), g.field_left);
    if (ts_node_is_null(name) || ts_node_symbol(name) != g.identifier) return {};
  } else {
    return {};
  }
  return ts_node_is_null(name) ? std::string_view{} : c.text(name);
}

void runtime_patching(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPatchingNames, out);
  match_names(c, kFileWriteNames, out);
  match_attributes(c, kPatchingAttributes, out);
  const Grammar& g = c.grammar();
  // functools.wraps(f, updated=..., assigned=...) copies attributes like update_wrapper.
  if (c.symbol() == g.keyword_argument) {
    std::string_view key = c.text(field(c.node(), g.field_name));
    if (key == "updated" || key == "assigned") out.push_back({c.node(), std::string(key) + "="});
  }
  if (c.symbol() == g.call && opens_for_writing(c)) out.push_back({c.node(), "open(..., mode)"});
  TSNode object;
  std::string_view method;
  if (c.symbol() == g.call && c.reads_attribute(field(c.node(), g.field_function), &object, &method) &&
      listed(method, kFileWriteMethods))
    out.push_back({c.node(), "." + std::string(method) + "()"});
  // A class of one's own that intercepts torch calls.
  std::string_view defined = defined_name(c);
  if (listed(defined, kPatchingAttributes)) out.push_back({c.node(), std::string(defined)});
  // Native code writing files.
  const std::string& text = c.native_text();
  if (text.empty()) return;
  match_strings(c, kFileWriteStrings, out);
  for (std::string_view call : kFileWriteCalls)
    if (has_call(text, call)) out.push_back({c.node(), std::string(call)});
  for (std::string_view function : kInterposedFunctions)
    if (has_definition(text, function)) out.push_back({c.node(), "defines " + std::string(function)});
}

void introspection(const Context& c, std::vector<Finding>& out) {
  match_names(c, kIntrospectionNames, out);
  match_attributes(c, kIntrospectionAttributes, out);
  match_paths(c, kIntrospectionPaths, out);
  // Native code opening files by path.
  if (const std::string& text = c.native_text(); !text.empty()) {
    match_strings(c, kFileReadStrings, out);
    for (std::string_view call : kFileReadCalls)
      if (has_call(text, call)) out.push_back({c.node(), std::string(call)});
  }
  // A file opened by a path the checker cannot read (`"/pr" + x`, a
  // variable, a format): it may be /proc.
  if (c.symbol() != c.grammar().call || !listed(c.callee_name(), kFileOpeners)) return;
  TSNode path = positional_argument(c, 0);
  if (ts_node_is_null(path)) path = c.unpacked_argument(c.node());
  if (!ts_node_is_null(path) && !folded_string(c, path)) out.push_back({path, written(c.text(path))});
}

// A try with an except clause, unless its body only imports (an optional
// dependency guard); contextlib.suppress is the same thing.
void try_fallback(const Context& c, std::vector<Finding>& out) {
  match_names(c, kFallbackNames, out);
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  // `__exit__ = f`: an exit whose return value is out of sight.
  if (c.symbol() == g.assignment) {
    std::string_view defined = defined_name(c);
    if (defined == "__exit__" || defined == "__aexit__") out.push_back({node, ""});
    return;
  }
  // `return`, `break` or `continue` in a finally swallows the exception; a
  // context manager's __exit__ that returns does too (when it returns true).
  if (c.symbol() == g.return_statement || c.symbol() == g.break_statement ||
      c.symbol() == g.continue_statement) {
    for (uint32_t up = 1; up < 64; ++up) {
      TSNode a = c.ancestor(up);
      TSSymbol s = ts_node_symbol(a);
      if (s == g.function_definition || s == g.lambda || s == g.module) {
        TSNode name = field(a, g.field_name);
        bool exits = s == g.function_definition && !ts_node_is_null(name) &&
                     (c.text(name) == "__exit__" || c.text(name) == "__aexit__");
        TSNode value = ts_node_named_child_count(node) ? ts_node_named_child(node, 0) : TSNode{};
        bool returns_something = c.symbol() == g.return_statement && !ts_node_is_null(value) &&
                                 ts_node_symbol(value) != g.none && ts_node_symbol(value) != g.false_;
        if (exits && returns_something) out.push_back({node, ""});
        return;
      }
      if (s == g.finally_clause) {
        out.push_back({node, ""});
        return;
      }
      if (c.symbol() != g.return_statement && (s == g.for_statement || s == python_symbol("while_statement")))
        return;  // break/continue of a loop inside the finally
    }
    return;
  }
  if (c.symbol() != g.try_statement) return;
  bool handles = false;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSSymbol symbol = ts_node_symbol(ts_node_named_child(node, i));
    handles = handles || symbol == g.except_clause || symbol == g.except_group_clause;
  }
  if (!handles) return;
  TSNode body = field(node, g.field_body);
  bool only_imports = !ts_node_is_null(body);
  uint32_t statements = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < statements; ++i) {
    TSNode s = ts_node_named_child(body, i);
    TSSymbol symbol = ts_node_symbol(s);
    only_imports = only_imports && (ts_node_is_extra(s) || symbol == g.import_statement ||
                                    symbol == g.import_from_statement);
  }
  if (!only_imports) out.push_back({node, ""});
}

void references_model(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() != g.identifier) return;
  std::string_view name = c.text(node);
  if (name != "Model" && name != "__main__") return;
  if (name == "Model" && c.parent_symbol() == g.class_definition &&
      ts_node_eq(field(c.parent(), g.field_name), node))
    return;  // defines_model
  out.push_back({node, std::string(name)});
}

void seed_manipulation(const Context& c, std::vector<Finding>& out) {
  match_names(c, kSeedNames, out);
  match_strings(c, kSeedStrings, out);
}

// Whether `value` keeps fp32: the literal False (allow_tf32) or "ieee".
bool keeps_fp32(const Context& c, TSNode value) {
  std::string_view literal;
  if (ts_node_is_null(value)) return false;
  return ts_node_symbol(value) == c.grammar().false_ || (c.string_literal(value, &literal) && literal == "ieee");
}

// A call of triton.language.dot that leaves its precision to Triton (TF32
// for fp32 operands) or sets it by anything but a literal: it must say
// input_precision="ieee" or allow_tf32=False.
bool default_precision_dot(const Context& c) {
  const std::string& callee = c.callee_name();
  if (callee != "triton.language.dot" && callee != "triton.language.core.dot") return false;
  const Grammar& g = c.grammar();
  TSNode arguments = c.argument_list(c.node());
  if (ts_node_is_null(arguments) || !ts_node_is_null(c.unpacked_argument(c.node()))) return true;
  uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) != g.keyword_argument) continue;
    std::string_view key = c.text(field(a, g.field_name));
    if (key == "input_precision" || key == "allow_tf32") return false;  // judged below
  }
  // dot(a, b, acc, input_precision) (allow_tf32 in older Triton)
  return !keeps_fp32(c, positional_argument(c, 3));
}

// A precision setting given by name (`torch.backends.cudnn.conv.fp32_precision
// = "tf32"`, `torch.set_float32_matmul_precision("high")`): only "ieee" and
// "highest" keep fp32.
bool reduced_precision_setting(const Context& c) {
  const Grammar& g = c.grammar();
  auto reduces = [&](TSNode value) {
    std::string_view literal;
    return ts_node_is_null(value) || !c.string_literal(value, &literal) ||
           (literal != "ieee" && literal != "highest");
  };
  const std::string& reference = c.reference_name();
  std::string_view last = std::string_view(reference).substr(reference.rfind('.') + 1);
  if (reference.empty() || !listed(last, kPrecisionSettings)) return false;
  if (c.parent_symbol() == g.assignment && ts_node_eq(field(c.parent(), g.field_left), c.node()))
    return reduces(field(c.parent(), g.field_right));
  if (c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node())) {
    TSNode arguments = field(c.parent(), g.field_arguments);
    return ts_node_is_null(arguments) || ts_node_named_child_count(arguments) != 1 ||
           reduces(ts_node_named_child(arguments, 0));
  }
  return !only_compared(c);
}

void precision_downcast(const Context& c, std::vector<Finding>& out) {
  const std::string& reference = c.reference_name();
  bool setting = !reference.empty() && listed(std::string_view(reference).substr(reference.rfind('.') + 1),
                                              kPrecisionSettings);
  if (setting) {
    if (reduced_precision_setting(c)) out.push_back({c.node(), reference});
  } else if (!assigned_false(c) && !only_compared(c)) {
    match_names(c, kPrecisionNames, out);
  }
  for (std::string_view token : kPrecisionStrings)
    if (has_uncompared_identifier(c.native_text(), token)) out.push_back({c.node(), std::string(token)});
  // `half` as a type only in C++ sources (a docstring's "the first half second" is prose).
  const std::string& native = c.native_text();
  if (native.find('{') != std::string::npos && native.find(';') != std::string::npos && has_half_type(native))
    out.push_back({c.node(), "half"});
  for (std::string_view method : kPrecisionNativeMethods)
    if (has_member_call(c.native_text(), method)) out.push_back({c.node(), "." + std::string(method) + "()"});
  for (const auto& [at, key] : environment_writes(c))
    if (listed(key, kEnvironmentPrecision)) out.push_back({at, "os.environ[" + key + "]"});
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() == g.call) {
    if (default_precision_dot(c)) out.push_back({node, "tl.dot without input_precision=\"ieee\""});
    TSNode function = field(node, g.field_function);
    TSNode object;
    std::string_view name;
    if (!ts_node_is_null(function) && c.reads_attribute(function, &object, &name)) {
      if (listed(name, kPrecisionMethods))
        out.push_back({function, std::string(".").append(name).append("()")});
      // x.type("torch.HalfTensor"), x.to("torch.float16"): a type by its name.
      TSNode first = positional_argument(c, 0);
      std::string_view literal;
      if ((name == "type" || name == "to" || name == "astype" || name == "view") && !ts_node_is_null(first) &&
          c.string_literal(first, &literal) &&
          (literal.find("Half") != std::string_view::npos || literal.find("BFloat16") != std::string_view::npos ||
           literal.find("float16") != std::string_view::npos || literal.find("float8") != std::string_view::npos ||
           literal.find("half") != std::string_view::npos || literal == "f2" || literal == "<f2" || literal == "e"))
        out.push_back({first, std::string(literal)});
    }
  } else if (c.symbol() == g.keyword_argument) {
    TSNode name = field(node, g.field_name);
    TSNode value = field(node, g.field_value);
    if (ts_node_is_null(name) || ts_node_is_null(value)) return;
    std::string_view key = c.text(name);
    std::string_view literal;
    if (key == "allow_tf32" && ts_node_symbol(value) != g.false_)
      out.push_back({node, written(c.text(node))});
    else if (key == "input_precision" && !(c.string_literal(value, &literal) && literal == "ieee"))
      out.push_back({node, written(c.text(node))});
  }
}

// A cpp_extension flag argument (extra_cflags=[...]) holding anything but
// literal flags of kBuildFlags.
void unknown_build_flags(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode key = field(c.node(), g.field_name);
  TSNode value = field(c.node(), g.field_value);
  if (ts_node_is_null(key) || ts_node_is_null(value) || !listed(c.text(key), kBuildFlagArguments)) return;
  // The flags: list or tuple literals, joined by `+`, or names bound once to such.
  std::vector<TSNode> flags, pending{value};
  while (!pending.empty()) {
    TSNode part = pending.back();
    pending.pop_back();
    if (ts_node_is_null(part)) continue;
    TSSymbol s = ts_node_symbol(part);
    TSNode constant = s == g.identifier ? c.facts().constant_value(c.text(part)) : TSNode{};
    if (s == g.list || s == g.tuple) {
      for (uint32_t i = 0; i < ts_node_named_child_count(part); ++i) flags.push_back(ts_node_named_child(part, i));
    } else if (s == g.binary_operator && c.text(ts_node_child_by_field_name(part, "operator", 8)) == "+") {
      pending.push_back(field(part, g.field_left));
      pending.push_back(field(part, g.field_right));
    } else if (!ts_node_is_null(constant) && pending.size() + flags.size() < 256) {
      pending.push_back(constant);
    } else {
      out.push_back({part, std::string(c.text(key)) + "=" + written(c.text(part))});
    }
  }
  // Include paths are directories, not flags.
  if (c.text(key) == "extra_include_paths") {
    std::string_view literal;
    for (TSNode flag : flags)
      if (!c.string_literal(flag, &literal) || !literal.starts_with('/')) out.push_back({flag, written(c.text(flag))});
    return;
  }
  for (TSNode flag : flags) {
    std::string_view literal;
    bool known = c.string_literal(flag, &literal) &&
                 (listed(literal, kBuildFlags) ||
                  std::any_of(std::begin(kBuildFlagPrefixes), std::end(kBuildFlagPrefixes),
                              [literal](std::string_view p) { return literal.starts_with(p); }) ||
                  (literal.starts_with("-D") && literal.find('=') == std::string_view::npos) ||
                  (literal.starts_with("-D") &&
                   literal.find_first_not_of("0123456789.", literal.find('=') + 1) == std::string_view::npos));
    if (!known) out.push_back({flag, written(c.text(flag))});
  }
}

void dynamic_code(const Context& c, std::vector<Finding>& out) {
  for (const auto& [at, key] : environment_writes(c))
    if (!listed(key, kEnvironmentAllowed) && !listed(key, kEnvironmentPrecision))
      out.push_back({at, "os.environ[" + written(key) + "]"});
  match_names(c, kDynamicCodeNames, out);
  const Grammar& g = c.grammar();
  if (c.symbol() == g.keyword_argument) return unknown_build_flags(c, out);
  // type(name, bases, namespace) makes a class whose members no def shows.
  if (c.symbol() == g.call && c.callee_name() == "type" && !ts_node_is_null(positional_argument(c, 1)))
    out.push_back({c.node(), "type(name, bases, namespace)"});
  std::string_view defined = defined_name(c);
  if (listed(defined, kDynamicCodeDunders)) out.push_back({c.node(), std::string(defined)});
  // A macro that pastes tokens (`a ## b`) makes identifiers no text shows.
  if (c.symbol() != g.string && c.symbol() != g.concatenated_string) return;
  if (c.symbol() == g.string && c.parent_symbol() == g.concatenated_string) return;
  if (pastes_tokens(python_string_value(c.tree(), c.node()))) out.push_back({c.node(), "## token pasting"});
  // Code the text does not show: includes by path or macro, assembler
  // directives that pull in files or raw bytes.
  const std::string& text = c.native_text();
  for (std::string_view operand : directives(text, "include")) {
    std::string_view path = operand.substr(std::min<size_t>(1, operand.size()));
    if ((!operand.starts_with('<') && !operand.starts_with('"')) || path.starts_with('/') ||
        path.find("..") != std::string_view::npos)
      out.push_back({c.node(), "#include " + written(operand)});
  }
  for (std::string_view directive : kHiddenCodeDirectives)
    if (text.find(directive) != std::string::npos) out.push_back({c.node(), std::string(directive)});
}

// Imports outside the allowed modules (kAllowedImports), of private parts,
// star and relative imports.
void forbidden_import(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.import_statement && c.symbol() != g.import_from_statement) return;
  if (c.symbol() == g.import_from_statement) {
    TSNode module = field(c.node(), g.field_module_name);
    if (!ts_node_is_null(module) && ts_node_symbol(module) != g.dotted_name) {
      out.push_back({module, "relative import " + written(c.text(module))});
      return;
    }
  }
  for (const ImportedName& name : c.imported_names()) {
    std::string_view qualified = name.qualified;
    if (qualified.ends_with(".*")) {
      out.push_back({name.at, "from " + std::string(qualified.substr(0, qualified.size() - 2)) + " import *"});
      continue;
    }
    std::string_view top = qualified.substr(0, qualified.find('.'));
    bool private_part = false;
    for (size_t at = 0; at < qualified.size();) {
      size_t end = std::min(qualified.find('.', at), qualified.size());
      std::string_view part = qualified.substr(at, end - at);
      private_part = private_part || (part.starts_with('_') && part != "__future__");
      at = end + 1;
    }
    if (!listed(top, kAllowedImports) || private_part) out.push_back({name.at, std::string(qualified)});
  }
}

// Private (`x._y`) and dunder attributes, except one's own private ones
// (`self._cache`, `ctx._saved`) and the few dunders in kAllowedDunders;
// dunders defined in a class body or at the top level other than those of
// kAllowedDunderDefinitions (`__module__ = "torch"`, `__del__`, `__set_name__`).
void private_attribute(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  std::string_view defined = defined_name(c);
  if (is_dunder(defined) && !listed(defined, kAllowedDunderDefinitions))
    out.push_back({c.node(), std::string(defined)});
  if (c.symbol() != g.attribute) return;
  TSNode object = field(c.node(), g.field_object);
  TSNode attribute = field(c.node(), g.field_attribute);
  if (ts_node_is_null(object) || ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (!name.starts_with('_')) return;
  if (is_dunder(name)) {
    if (!listed(name, kAllowedDunders)) out.push_back({attribute, std::string(name)});
    return;
  }
  if (ts_node_symbol(object) == g.identifier) {
    std::string_view root = c.text(object);
    if ((root == "self" && c.self_is_method_receiver()) || (root == "ctx" && c.inside_ctx_function()) ||
        root == "cls")
      return;
  }
  out.push_back({attribute, std::string(name)});
}

// A module used as a value (put in a container, passed to a call, returned)
// rather than through its attributes: whatever receives it is out of the
// checker's sight. Plain aliases (`c = torch.cuda`, walrus, defaults,
// `a, b = x, y`) are resolved instead.
void module_as_value(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  // An import binding a name that is also bound to something else.
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& name : c.imported_names()) {
      std::string_view local = ts_node_is_null(name.alias) ? std::string_view(name.qualified) : c.text(name.alias);
      if (ts_node_is_null(name.alias))
        local = c.symbol() == g.import_statement ? local.substr(0, local.find('.')) : local.substr(local.rfind('.') + 1);
      if (c.facts().bound_ambiguously(local)) out.push_back({name.at, name.qualified});
    }
    return;
  }
  const std::string& reference = c.reference_name();
  if (reference.empty() || !c.facts().is_module(reference)) return;
  TSSymbol parent = c.parent_symbol();
  TSNode node = c.node();
  if (parent == g.import_statement || parent == g.import_from_statement) return;
  // Places that bind a name rather than use a value.
  static const TSSymbol kBinding[] = {python_symbol("parameters"), python_symbol("lambda_parameters"),
                                      python_symbol("global_statement"),
                                      python_symbol("nonlocal_statement"), g.typed_parameter,
                                      g.as_pattern_target, g.pattern_list, g.tuple_pattern};
  if (std::find(std::begin(kBinding), std::end(kBinding), parent) != std::end(kBinding)) return;
  if ((parent == g.for_statement || parent == g.for_in_clause) &&
      ts_node_eq(field(c.parent(), g.field_left), node))
    return;
  // An alias is a plain name outside class bodies: `self.c = torch.cuda` or
  // `c = torch.cuda` in a class body makes the module an attribute of
  // something, read later as `self.c.Stream` where no name resolves.
  // Chained assignments (`self.c = d = torch.cuda`) write every target;
  // a star target (`*c, = ...`) makes a list; a name bound elsewhere to
  // another module or name (`c = torch.cuda` here, `c = os` there) leaves
  // which one `c.Stream` reads to the run.
  auto plain_alias = [&](uint32_t assignment_up) {
    for (uint32_t up = assignment_up; ts_node_symbol(c.ancestor(up)) == g.assignment; ++up) {
      TSNode left = field(c.ancestor(up), g.field_left);
      if (ts_node_is_null(left) || ts_node_symbol(c.ancestor(up + 3)) == g.class_definition) return false;
      std::vector<TSNode> stack{left};
      while (!stack.empty()) {
        TSNode target = stack.back();
        stack.pop_back();
        TSSymbol s = ts_node_symbol(target);
        if (s == g.list_splat_pattern || s == g.list_splat) return false;
        if (g.is_target_group(s)) {
          for (uint32_t i = 0; i < ts_node_named_child_count(target); ++i) stack.push_back(ts_node_named_child(target, i));
        } else if (s != g.identifier || c.facts().bound_ambiguously(c.text(target))) {
          return false;
        }
      }
    }
    return true;
  };
  if (parent == g.assignment && ts_node_eq(field(c.parent(), g.field_right), node)) {
    if (plain_alias(1)) return;
    out.push_back({node, reference});
    return;
  }
  if ((parent == g.assignment && ts_node_eq(field(c.parent(), g.field_left), node)) ||
      (parent == g.named_expression && ts_node_eq(field(c.parent(), g.field_value), node)) ||
      ((parent == g.default_parameter || parent == g.typed_default_parameter) &&
       ts_node_eq(field(c.parent(), g.field_value), node)))
    return;
  // a, b = torch.cuda, 1
  if (parent == g.expression_list && ts_node_symbol(c.ancestor(2)) == g.assignment && plain_alias(2)) return;
  // getattr(torch, ...) and its kin: the rules on those calls judge them.
  if (parent == g.argument_list) {
    TSNode function = field(c.ancestor(2), g.field_function);
    std::string_view callee = ts_node_is_null(function) ? std::string_view{} : c.text(function);
    if (callee == "getattr" || callee == "setattr" || callee == "delattr" || callee == "hasattr")
      return;
  }
  out.push_back({node, reference});
}

// The node types the matchers look at.
constexpr std::string_view kModule[] = {"module"};
constexpr std::string_view kClass[] = {"class_definition"};
constexpr std::string_view kCallIdentifier[] = {"call", "identifier"};
constexpr std::string_view kIdentifier[] = {"identifier"};
constexpr std::string_view kIdentifierEscape[] = {"identifier", "escape_sequence"};
constexpr std::string_view kTargets[] = {"assignment", "augmented_assignment", "for_statement",
                                         "for_in_clause", "as_pattern", "delete_statement", "call"};
// match_names: imports and name references (literal getattr calls included).
constexpr std::string_view kNames[] = {"import_statement", "import_from_statement", "identifier",
                                       "attribute", "call"};
// match_names and match_strings (match_attributes looks at attributes).
constexpr std::string_view kNamesStrings[] = {"import_statement", "import_from_statement",
                                              "identifier", "attribute", "call", "string",
                                              "concatenated_string"};
constexpr std::string_view kPrecision[] = {"import_statement", "import_from_statement",
                                           "identifier", "attribute", "string", "concatenated_string",
                                           "call", "keyword_argument", "subscript"};
constexpr std::string_view kImports[] = {"import_statement", "import_from_statement"};
constexpr std::string_view kDynamicCode[] = {"import_statement", "import_from_statement", "identifier",
                                             "attribute", "call", "string", "concatenated_string",
                                             "keyword_argument", "function_definition", "assignment",
                                             "subscript"};
constexpr std::string_view kAttribute[] = {"attribute", "function_definition", "assignment"};
constexpr std::string_view kReferences[] = {"identifier", "attribute", "import_statement",
                                            "import_from_statement"};
constexpr std::string_view kPatching[] = {"import_statement", "import_from_statement", "identifier",
                                          "attribute", "call", "keyword_argument",
                                          "function_definition", "assignment", "string",
                                          "concatenated_string"};
constexpr std::string_view kPaths[] = {"import_statement", "import_from_statement", "identifier",
                                       "attribute", "call", "string", "concatenated_string",
                                       "binary_operator"};
constexpr std::string_view kFallback[] = {"import_statement", "import_from_statement", "identifier",
                                          "attribute", "call", "try_statement", "return_statement",
                                          "break_statement", "continue_statement", "assignment"};

constexpr Rule kRules[] = {
    {"no_model_new", "the candidate defines no class named ModelNew", no_model_new, kModule},
    {"defines_model", "do not define a class named Model (the reference); define ModelNew only",
     defines_model, kClass},
    {kUnreadableSource.code, kUnreadableSource.message, non_ascii_name, kIdentifierEscape},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr,
     kCallIdentifier},
    {"dynamic_setattr", "setattr and delattr need a literal attribute name (got '{target}')",
     dynamic_setattr, kCallIdentifier},
    {"foreign_attribute_assignment",
     "assignment to attribute '{target}' is not allowed (only self.<x>)",
     foreign_attribute_assignment, kTargets},
    {"uses_threads", "threads, processes and async tasks are not allowed in a candidate ('{target}')",
     uses_threads, kNamesStrings},
    {"side_stream", "launching work on another CUDA stream is not allowed ('{target}')", side_stream,
     kNamesStrings},
    {"runtime_patching",
     "patching the timer, torch, the reference or builtins is not allowed ('{target}')",
     runtime_patching, kPatching},
    {"introspection",
     "reading other objects through gc, inspect, ctypes, sys frames or /proc is not allowed "
     "('{target}')",
     introspection, kPaths},
    {"try_fallback",
     "try/except around the custom path (a fallback to torch) is not allowed; only imports may be "
     "guarded",
     try_fallback, kFallback},
    {"references_model", "the candidate must not use or wrap the reference Model ('{target}')",
     references_model, kIdentifier},
    {"seed_manipulation",
     "the candidate must not seed or read random number generators' state ('{target}')",
     seed_manipulation, kNamesStrings},
    {"precision_downcast", "an fp32 problem must be computed in fp32 (no TF32, fp16 or bf16): '{target}'",
     precision_downcast, kPrecision},
    {"dynamic_code", "exec, eval, compile and __import__ hide code from the checker ('{target}')",
     dynamic_code, kDynamicCode},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr_names,
     kNames},
    {"forbidden_import", "the candidate may import only the modules docs/verdicts.md lists ('{target}')",
     forbidden_import, kImports, true},
    {"private_attribute", "private and dunder attributes are not allowed ('{target}')",
     private_attribute, kAttribute, true},
    {"module_as_value",
     "a module may be used only through its attributes, not passed around as a value ('{target}')",
     module_as_value, kReferences, true},
};

}  // namespace

std::span<const Rule> rule_table() { return kRules; }

std::span<const Rule* const> rules_for(TSSymbol symbol) {
  // Built once from the constant table and grammar, then only read.
  static const std::vector<std::vector<const Rule*>> by_symbol = [] {
    std::vector<std::vector<const Rule*>> table(ts_language_symbol_count(python_language()));
    for (const Rule& rule : kRules)
      for (std::string_view type : rule.types) table.at(python_symbol(type)).push_back(&rule);
    return table;
  }();
  if (symbol >= by_symbol.size()) return {};
  return by_symbol[symbol];
}

std::string fill(std::string_view message, std::string_view name, std::string_view value) {
  std::string placeholder(1, '{');
  placeholder.append(name).push_back('}');
  std::string out(message);
  size_t at = out.find(placeholder);
  if (at != std::string::npos) out.replace(at, placeholder.size(), value);
  return out;
}

}  // namespace kmem::check_internal
