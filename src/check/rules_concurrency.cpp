// Rules on concurrency: threads, processes, signals and raw system calls
// (Python modules and native sources), and work on CUDA streams other than
// the current one.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

constexpr std::string_view kThreadNames[] = {
    "threading.*", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess", "signal", "pty", "os.fork",
    "os.forkpty", "os.register_at_fork", "os.system", "os.popen", "os.spawn*", "os.exec*", "os.posix_spawn*",
    "torch.multiprocessing", "torch.jit.fork", "torch.set_num_threads", "torch.set_num_interop_threads",
    "torch.jit._fork", "torch.futures", "torch.nn.parallel", "torch.distributed", "torch.utils.data", "os.kill",
    "os.killpg", "os.abort", "os.sys", "os.wait*", "os.setsid", "os.setpgid", "os.pidfd*", "os.unshare", "os.setns",
    "os.sched_set*", "os.setpriority", "os.nice", "os.plock", "os.startfile", "torch.utils.collect_env",
    // Threads of its own calling the model (red-team round 5).
    "torch.utils.throughput_benchmark", "torch.utils.benchmark",
    // Threads replicating a module (DataParallel's parallel_apply, even on one
    // device), tensorboard's background writer, processes run by Triton's
    // tools (nvidia-smi, cuobjdump), and a session and terminal of its own
    // (red-team round 6).
    "torch.nn.DataParallel", "torch.utils.tensorboard", "triton.testing.nvsmi", "triton.testing.set_gpu_clock",
    "triton.tools", "os.login_tty", "os.openpty", "os.setpgrp", "os.tcsetpgrp"};
// What `threading` offers that starts nothing: locks and
// other synchronisation objects, thread ids.
constexpr std::string_view kThreadAllowed[] = {
    "threading.Lock",          "threading.RLock",     "threading.get_ident",
    "threading.get_native_id", "threading.local",     "threading.Event",
    "threading.Condition",     "threading.Semaphore", "threading.BoundedSemaphore",
    "threading.TIMEOUT_MAX"};
// Native identifiers (C++/CUDA sources) that start threads or processes or
// signal them; a call of the libc names (`fork(`), the others wherever named.
constexpr std::string_view kThreadStrings[] = {
    "pthread_create",  "std::async",     "std::jthread",       "at::launch",
    "std::launch",     "boost::thread",  "at::intraop_launch", "launch_no_thread_state",
    "c10::ThreadPool", "TaskThreadPool", "torch::jit::fork",   "std::packaged_task",
    "thrd_create",     "timer_create",   "SIGEV_THREAD"};
constexpr std::string_view kProcessCalls[] = {"fork",
                                              "vfork",
                                              "clone",
                                              "clone3",
                                              "system",
                                              "popen",
                                              "execv",
                                              "execve",
                                              "execvp",
                                              "execvpe",
                                              "execl",
                                              "execle",
                                              "execlp",
                                              "posix_spawn",
                                              "posix_spawnp",
                                              "kill",
                                              "killpg",
                                              "tgkill",
                                              "signal",
                                              "sigaction",
                                              "ptrace",
                                              "setsid",
                                              "daemon",
                                              "dlopen",
                                              "dlsym",
                                              "mprotect",
                                              "syscall",
                                              "process_vm_readv",
                                              "process_vm_writev",
                                              "pthread_kill",
                                              "raise",
                                              "sigqueue",
                                              "tkill",
                                              "prctl",
                                              "unshare",
                                              "setns",
                                              "execveat",
                                              "fexecve",
                                              "dlmopen",
                                              "pthread_sigqueue",
                                              "setpgid",
                                              "mmap",
                                              "memfd_create",
                                              "__libc_fork",
                                              "_Fork",
                                              "__clone",
                                              "__libc_system",
                                              "pthread_atfork",
                                              "cudaLaunchHostFunc",
                                              "cudaStreamAddCallback",
                                              "cuLaunchHostFunc",
                                              "cuStreamAddCallback",
                                              "cudaLaunchHostFunc_ptsz",
                                              "cudaStreamAddCallback_ptsz",
                                              "atexit",
                                              "at_quick_exit",
                                              "__cxa_atexit",
                                              "__cxa_thread_atexit",
                                              "dl_iterate_phdr",
                                              "wordexp",
                                              "__gthread_create",
                                              "Py_AtExit"};
// Of kProcessCalls, names an honest kernel may use for something else (a
// variable `signal`, `x.clone()`): matched only where called, taken by
// address, named in a #define or passed as a macro argument. The others
// match wherever named.
constexpr std::string_view kProcessWords[] = {"system", "signal", "kill", "raise", "clone", "daemon"};
// Raw system calls in host assembly.
constexpr std::string_view kSyscallInstructions[] = {"syscall", "sysenter", "int $0x80", "int 0x80"};

constexpr std::string_view kStreamNames[] = {"torch.cuda.Stream",
                                             "torch.cuda.make_graphed_callables",
                                             "torch.cuda.graphs",
                                             "torch.cuda.stream",
                                             "torch.cuda.ExternalStream",
                                             "torch.cuda.set_stream",
                                             "torch.cuda.StreamContext",
                                             "torch.cuda.streams",
                                             "torch.Stream",
                                             "torch.stream",
                                             "cupy.cuda.Stream",
                                             "cupy.cuda.ExternalStream",
                                             "numba.cuda.stream",
                                             "torch.accelerator.set_stream",
                                             "torch.cuda.graph",
                                             "torch.cuda.CUDAGraph"};
constexpr std::string_view kStreamStrings[] = {"cudaStreamCreate",
                                               "cuGreenCtxStreamCreate",
                                               "unpack3",
                                               "CUDAStream::unpack",
                                               "cudaStreamCreateWithFlags",
                                               "cudaStreamCreateWithPriority",
                                               "cuStreamCreate",
                                               "cuStreamCreateWithPriority",
                                               "getStreamFromPool",
                                               "cudaStreamPerThread",
                                               "CU_STREAM_PER_THREAD",
                                               "cudaStreamNonBlocking",
                                               "CU_STREAM_NON_BLOCKING",
                                               "getStreamFromExternal",
                                               "cudaGraphLaunch",
                                               "cuLaunchKernel",
                                               "setCurrentCUDAStream",
                                               "cudaStreamBeginCapture",
                                               "cudaStreamBeginCaptureToGraph",
                                               "cuStreamBeginCapture",
                                               "cudaGraphInstantiate",
                                               "cuGraphLaunch",
                                               "CUDAMultiStreamGuard"};
// Flags of nvcc or the driver that put kernels on per-thread streams.
// (`--default-stream per-thread`; a variable `items_per_thread` is none).
constexpr std::string_view kStreamFlags[] = {"default-stream", "per-thread", "CUDA_API_PER_THREAD_DEFAULT_STREAM",
                                             "cudaStreamPerThread"};

// `text` with torch's own clone (`torch::clone(x)`, `at::clone(x)`, which
// copy a tensor) renamed, so that only the process clone is left to find.
std::string without_tensor_clones(const std::string& text) {
  std::string renamed = text;
  for (std::string_view tensor_clone : {"torch::clone", "at::clone"})
    for (size_t at = renamed.find(tensor_clone); at != std::string::npos; at = renamed.find(tensor_clone, at + 1)) {
      bool whole = at == 0 || !(std::isalnum(static_cast<unsigned char>(renamed[at - 1])) || renamed[at - 1] == '_');
      if (whole) renamed.replace(at, tensor_clone.size(), "tensor_copy");
    }
  return renamed;
}

}  // namespace

void uses_threads(const Context& c, std::vector<Finding>& out) {
  match_names(c, kThreadNames, out, kThreadAllowed);
  const std::string& text = c.native_text();
  if (text.empty()) return;
  match_strings(c, kThreadStrings, out);
  if (has_identifier(text, "std::thread", "hardware_concurrency")) out.push_back({c.node(), "std::thread"});
  // `using namespace std;` (any directive: a macro may name std) then
  // `thread t(...)` / `async(...)`; a variable named `thread`
  // (`int thread = blockIdx.x * ...`) is none.
  if (has_using_directive(text) &&
      (has_type_use(text, "thread") || has_type_use(text, "jthread") || has_call(text, "async")))
    out.push_back({c.node(), "thread (using namespace std)"});
  // Process calls are read in code only (a message naming fork calls
  // nothing); the instructions in literals too, as C escapes decoded:
  // inline assembly is a string.
  const std::string code = blank_literals(text);
  for (std::string_view call : kProcessCalls) {
    bool word = listed(call, kProcessWords);
    std::string renamed = call == "clone" ? without_tensor_clones(code) : std::string();
    std::string_view judged = call == "clone" ? std::string_view(renamed) : std::string_view(code);
    if (word ? has_function_use(judged, call) : has_free_identifier(judged, call))
      out.push_back({c.node(), std::string(call)});
  }
  const std::string assembly = c_escapes_decoded(text);
  for (std::string_view instruction : kSyscallInstructions)
    if (instruction.find(' ') != std::string_view::npos ? assembly.find(instruction) != std::string::npos
                                                        : has_identifier(assembly, instruction))
      out.push_back({c.node(), std::string(instruction)});
}

void side_stream(const Context& c, std::vector<Finding>& out) {
  match_names(c, kStreamNames, out);
  match_strings(c, kStreamStrings, out);
  // torch.compile's CUDA graphs (`mode="reduce-overhead"`, `"max-autotune"`,
  // `options={"triton.cudagraphs": True}`): captured on a stream of their own.
  if (std::string_view literal; c.symbol() == c.grammar().string && c.string_literal(c.node(), &literal) &&
                                (literal == "reduce-overhead" || literal == "max-autotune" ||
                                 literal.find("cudagraph") != std::string_view::npos))
    out.push_back({c.node(), std::string(literal)});
  const std::string& text = c.native_text();
  // A stream made from a number (`(cudaStream_t)2` is cudaStreamPerThread).
  for (std::string_view cast : {"(cudaStream_t)", "cudaStream_t>(", "(CUstream)", "CUstream>("})
    for (size_t at = text.find(cast); at != std::string::npos; at = text.find(cast, at + 1)) {
      size_t value = text.find_first_not_of(" \t\n(", at + cast.size());
      bool zero = value != std::string::npos && text[value] == '0' &&
                  (value + 1 >= text.size() || !std::isalnum(static_cast<unsigned char>(text[value + 1])));
      if (value != std::string::npos && std::isdigit(static_cast<unsigned char>(text[value])) && !zero)
        out.push_back({c.node(), std::string(cast) + " from a number"});
    }
  for (std::string_view flag : kStreamFlags)
    if (text.find(flag) != std::string::npos) out.push_back({c.node(), std::string(flag)});
}

}  // namespace kmem::check
