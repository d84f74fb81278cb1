// The candidates' sandbox: bubblewrap's command line for the candidate
// zygote and the workers' seccomp filters (see sandbox.h).
#include "sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string_view>
#include <tuple>

#include "process.h"

namespace kmem::eval {

namespace fs = std::filesystem;

// Hidden from candidate code: each worker binds its own part of it and then
// covers the whole folder with a fresh /tmp (python/kmem_worker/sandbox.py).
static constexpr const char* kHiddenBuilds = "/tmp/.kmem/builds";

Result<std::string> seccomp_program(SeccompFilter filter) {
  std::unique_ptr<void, void (*)(scmp_filter_ctx)> context(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
  if (!context) return Error("seccomp: cannot create a filter");
  scmp_filter_ctx ctx = context.get();
  auto deny = [&](int call, int error) { return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(error), call, 0) == 0; };
  bool ok = true;
  if (filter == SeccompFilter::kConfined) {
    // Other processes' memory and state, and the sandbox's own walls.
    for (int call : {SCMP_SYS(ptrace),
                     SCMP_SYS(process_vm_readv),
                     SCMP_SYS(process_vm_writev),
                     SCMP_SYS(pidfd_getfd),
                     SCMP_SYS(kcmp),
                     SCMP_SYS(mount),
                     SCMP_SYS(umount2),
                     SCMP_SYS(pivot_root),
                     SCMP_SYS(chroot),
                     SCMP_SYS(unshare),
                     SCMP_SYS(setns),
                     SCMP_SYS(open_tree),
                     SCMP_SYS(move_mount),
                     SCMP_SYS(fsopen),
                     SCMP_SYS(fsmount),
                     SCMP_SYS(bpf),
                     SCMP_SYS(keyctl),
                     SCMP_SYS(add_key),
                     SCMP_SYS(request_key),
                     SCMP_SYS(init_module),
                     SCMP_SYS(finit_module),
                     SCMP_SYS(delete_module),
                     SCMP_SYS(kexec_load),
                     SCMP_SYS(reboot)})
      ok = ok && deny(call, EPERM);
  } else {
    // No new process: threads only (clone with CLONE_THREAD); clone3 says
    // ENOSYS, so glibc falls back to clone, whose flags a filter can see.
    for (int call : {SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(execve), SCMP_SYS(execveat)})
      ok = ok && deny(call, EPERM);
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) == 0;
    ok = ok && deny(SCMP_SYS(clone3), ENOSYS);
  }
  if (!ok) return Error("seccomp: cannot add a rule");
  FILE* memory = tmpfile();
  if (memory == nullptr) return Error(std::string("seccomp: tmpfile: ") + strerror(errno));
  std::string program;
  if (seccomp_export_bpf(ctx, fileno(memory)) == 0) {
    long size = lseek(fileno(memory), 0, SEEK_END);
    program.resize(static_cast<size_t>(std::max(0L, size)));
    if (pread(fileno(memory), program.data(), program.size(), 0) != static_cast<ssize_t>(program.size()))
      program.clear();
  }
  fclose(memory);
  if (program.empty()) return Error("seccomp: cannot export the filter");
  return program;
}

std::string find_bwrap() {
  const char* chosen = std::getenv("KMEM_BWRAP");
  if (chosen != nullptr && *chosen != '\0') return access(chosen, X_OK) == 0 ? chosen : "";
  return find_on_path("bwrap");
}

Result<std::vector<std::string>> sandbox_command(const std::string& bwrap, const EvalOptions& options,
                                                 const std::string& run_dir, const SandboxRoot& root) {
  const std::string& cache = options.cache_dir;
  std::vector<std::string> argv{bwrap, "--die-with-parent", "--unshare-net"};
  // The zygote keeps CAP_SYS_ADMIN to give each worker a PID and mount
  // namespace of its own; workers drop every capability before candidate code.
  if (geteuid() != 0) argv.push_back("--unshare-user");
  argv.insert(argv.end(), {"--cap-add", "CAP_SYS_ADMIN"});
  auto system = root_arguments(root, options, run_dir);
  if (!system) return system.error();
  argv.insert(argv.end(), system->begin(), system->end());
  // The worker and the protocol file it reads (python/kmem_worker/protocol.py)
  // stay visible wherever the tree lies, under /tmp included.
  const std::string protocol =
      (std::filesystem::path(options.python_dir) / ".." / "data" / "protocol").lexically_normal().string();
  argv.insert(argv.end(), {"--ro-bind",
                           options.python_dir,
                           options.python_dir,  //
                           "--ro-bind",
                           protocol,
                           protocol,  //
                           "--tmpfs",
                           cache,
                           "--bind",
                           run_dir,
                           run_dir,  //
                           "--bind",
                           cache + "/builds",
                           kHiddenBuilds,  //
                           "--bind",
                           cache + "/triton",
                           std::string(kSandboxBuildDir) + "/triton",
                           "--chdir",
                           run_dir,
                           root.python});
  return argv;
}

// The variables a sandboxed candidate sees (sandbox_visible_environment);
// a name ending in '*' stands for every name that begins with the rest.
static constexpr std::string_view kVisibleVariables[] = {
    // The interpreter and the worker.
    "PATH", "HOME", "LANG", "LANGUAGE", "TZ", "LC_*", "PYTHON*", "KMEM_SANDBOX_*", "KMEM_SECCOMP_*", "KMEM_HARNESS_DIR",
    // Compilers and the libraries they and torch load.
    "CC", "CXX", "CUDACXX", "CFLAGS", "CXXFLAGS", "LDFLAGS", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
    "LIBRARY_PATH", "LD_LIBRARY_PATH", "MAX_JOBS", "NVCC_*", "OMP_*", "MKL_*",
    // The GPU, torch and Triton.
    "CUDA_*", "NVIDIA_*", "TORCH_*", "TRITON_*"};

static bool visible_in_sandbox(std::string_view name) {
  for (std::string_view visible : kVisibleVariables) {
    if (visible.back() == '*' ? name.substr(0, visible.size() - 1) == visible.substr(0, visible.size() - 1)
                              : name == visible)
      return true;
  }
  return false;
}

std::vector<std::string> sandbox_visible_environment(const std::vector<std::string>& environment) {
  std::vector<std::string> visible;
  for (const auto& entry : environment) {
    if (visible_in_sandbox(std::string_view(entry).substr(0, entry.find('=')))) visible.push_back(entry);
  }
  return visible;
}

static Status write_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  if (!out) return Error(path + ": cannot write");
  return Status::success();
}

Result<std::vector<std::string>> sandbox_environment(const EvalOptions& options, const std::string& run_dir) {
  std::error_code ec;
  for (const char* folder : {"/builds", "/triton"}) fs::create_directories(options.cache_dir + folder, ec);
  if (ec) return Error(options.cache_dir + ": cannot create the build cache folders: " + ec.message());
  std::vector<std::string> environment{
      "KMEM_SANDBOX_RUN_DIR=" + run_dir,
      "KMEM_SANDBOX_CACHE=" + options.cache_dir,
      std::string("KMEM_SANDBOX_BUILDS=") + kHiddenBuilds,
      std::string("TORCH_EXTENSIONS_DIR=") + kSandboxBuildDir + "/torch_extensions",
      std::string("TRITON_CACHE_DIR=") + kSandboxBuildDir + "/triton",
      // No home folder in the sandbox: what looks for one finds /tmp.
      "HOME=/tmp",
      std::string("KMEM_SANDBOX_DEV_SHM=") + (shares_dev_shm(options) ? "shared" : "private"),
  };
  for (auto [filter, name, variable] : {std::tuple{SeccompFilter::kConfined, "confined", "KMEM_SECCOMP_CONFINED"},
                                        {SeccompFilter::kNoProcesses, "no_processes", "KMEM_SECCOMP_NO_PROCESSES"}}) {
    auto program = seccomp_program(filter);
    if (!program) return program.error();
    std::string path = run_dir + "/seccomp-" + name + ".bpf";
    if (auto written = write_file(path, *program); !written) return written.error();
    environment.push_back(std::string(variable) + "=" + path);
  }
  return environment;
}

}  // namespace kmem::eval

namespace kmem {

using eval::ChildProcess;
using eval::Clock;
using eval::ExitStatus;
using eval::SpawnSpec;
namespace fs = std::filesystem;

Status sandbox_available(const EvalOptions& options) {
  const std::string advice = "; install bubblewrap (bwrap) or pass --no-sandbox";
  std::string bwrap = eval::find_bwrap();
  if (bwrap.empty()) return Error("the candidate sandbox cannot start: bwrap not found" + advice);
  std::error_code ec;
  // A folder of this probe's own: the root's generated files go there.
  std::string probe_dir = options.cache_dir + "/work/probe-" + std::to_string(getpid());
  for (const char* folder : {"/builds", "/triton"}) fs::create_directories(options.cache_dir + folder, ec);
  if (!ec) fs::create_directories(probe_dir, ec);
  if (ec) return Error("the candidate sandbox cannot start: " + options.cache_dir + ": " + ec.message() + advice);
  struct Removed {
    std::string folder;
    ~Removed() {
      std::error_code ignored;
      fs::remove_all(folder, ignored);
    }
  } removed{probe_dir};
  auto root = eval::probe_sandbox_root(options, probe_dir + "/sandbox-root.log");
  if (!root) return Error("the candidate sandbox cannot start: " + root.error().message() + advice);
  auto command = eval::sandbox_command(bwrap, options, probe_dir, *root);
  if (!command) return Error("the candidate sandbox cannot start: " + command.error().message() + advice);
  SpawnSpec spec;
  spec.argv = std::move(*command);
  spec.environment = eval::sandbox_visible_environment(eval::merged_environment({}));
  spec.inherit_environment = false;
  // Inside: the namespaces each worker gets (PID and mount), as the zygote makes them.
  spec.argv.insert(spec.argv.end(), {"-c",
                                     "import ctypes, os, sys\n"
                                     "libc = ctypes.CDLL(None, use_errno=True)\n"
                                     "if libc.unshare(0x20020000) != 0:\n"
                                     "    sys.exit('unshare: ' + os.strerror(ctypes.get_errno()))\n"});
  spec.log_path = probe_dir + "/sandbox-probe.log";
  auto process = ChildProcess::spawn(spec);
  if (!process) return Error("the candidate sandbox cannot start: " + process.error().message() + advice);
  (*process)->close_input();
  ExitStatus status = (*process)->wait_then_kill(Clock::now() + std::chrono::seconds(60));
  std::string log = eval::read_tail(spec.log_path, 4096);
  fs::remove(spec.log_path, ec);
  if (!status.signaled && status.code == 0) return Status::success();
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  if (auto newline = log.rfind('\n'); newline != std::string::npos) log = log.substr(newline + 1);
  return Error("the candidate sandbox cannot start: " + bwrap + " " + status.describe() +
               (log.empty() ? "" : " (" + log + ")") + advice);
}

}  // namespace kmem
