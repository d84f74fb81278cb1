// The candidates' minimal root: the interpreter's probe, the choice of what
// to bind and bubblewrap's arguments (see sandbox_root.h).
#include "sandbox_root.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"

namespace kmem::eval {

namespace fs = std::filesystem;

namespace {

// Folders of the root itself: bound whole (or recreated as the links they
// are on merged-/usr systems), whatever the probe says.
constexpr const char* kSystemFolders[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
// What of /etc the dynamic loader (ld.so.cache, ld.so.conf*), the compilers
// (the alternatives behind cc, c++ and ld), name lookups (nsswitch.conf) and
// time zones need. Users and groups come generated (root_arguments).
constexpr const char* kEtcEntries[] = {"/etc/ld.so.cache",  "/etc/ld.so.conf",    "/etc/ld.so.conf.d",
                                       "/etc/alternatives", "/etc/nsswitch.conf", "/etc/localtime"};
// Provided otherwise (a fresh /proc, /sys read-only, a minimal /dev).
constexpr const char* kProvided[] = {"/proc", "/sys", "/dev"};

bool within(const std::string& path, const std::string& folder) {
  if (folder == "/") return true;
  return path == folder ||
         (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/');
}

Status write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Error(path + ": cannot write");
  return Status::success();
}

}  // namespace

Result<SandboxRoot> probe_sandbox_root(const EvalOptions& options, const std::string& log_path) {
  SpawnSpec spec;
  spec.argv = {options.python, "-m", "kmem_worker.sandbox_root"};
  spec.environment = {prepended_entry("PYTHONPATH", options.python_dir)};
  spec.log_path = log_path;
  const std::string what = "the sandbox's root: " + options.python + " -m kmem_worker.sandbox_root";
  auto process = ChildProcess::spawn(spec);
  if (!process) return Error(what + ": " + process.error().message());
  (*process)->close_input();
  std::string line;
  auto read = (*process)->read_line(Clock::now() + std::chrono::seconds(60), line);
  ExitStatus status = (*process)->wait_then_kill(Clock::now() + std::chrono::seconds(5));
  std::string log = read_tail(log_path, 2048);
  std::error_code ec;
  fs::remove(log_path, ec);
  if (read != LineProcess::Read::kLine || status.signaled || status.code != 0)
    return Error(what + ": " + status.describe() + (log.empty() ? "" : ": " + log));
  auto answer = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || !answer.contains("python") || !answer["python"].is_string() || !answer.contains("paths") ||
      !answer["paths"].is_array() || !answer.contains("environment") || !answer["environment"].is_object())
    return Error(what + ": not an object {\"python\": string, \"paths\": [strings], \"environment\": {}}: " + line);
  SandboxRoot root;
  root.python = answer["python"].get<std::string>();
  for (const auto& path : answer["paths"]) {
    if (!path.is_string()) return Error(what + ": a path that is no string: " + path.dump());
    root.paths.push_back(path.get<std::string>());
  }
  for (const auto& [name, value] : answer["environment"].items()) {
    if (!value.is_string()) return Error(what + ": an environment value that is no string: " + name);
    root.environment.push_back(name + "=" + value.get<std::string>());
  }
  if (root.python.empty() || root.python[0] != '/') return Error(what + ": no absolute interpreter path: " + line);
  return root;
}

std::vector<std::string> chosen_paths(const std::vector<std::string>& found, const std::vector<std::string>& hidden) {
  std::vector<std::string> candidates;
  for (const std::string& path : found) {
    if (path.empty() || path[0] != '/') continue;
    std::string normal = fs::path(path).lexically_normal().string();
    while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
    candidates.push_back(normal);
  }
  // Shorter first: a parent is chosen before its children, which it covers.
  std::sort(candidates.begin(), candidates.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  std::vector<std::string> chosen;
  for (const std::string& path : candidates) {
    if (std::count(path.begin(), path.end(), '/') < 2) continue;  // "/" or a top-level folder
    if (within(path, "/usr")) continue;
    if (std::any_of(std::begin(kProvided), std::end(kProvided), [&](const char* f) { return within(path, f); }))
      continue;
    if (std::any_of(hidden.begin(), hidden.end(), [&](const std::string& h) { return within(h, path); })) continue;
    if (std::any_of(chosen.begin(), chosen.end(), [&](const std::string& c) { return within(path, c); })) continue;
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    chosen.push_back(path);
  }
  return chosen;
}

bool shares_dev_shm(const EvalOptions& options) { return options.device == "cuda" && options.tuning.inputs_by_ipc; }

Result<std::vector<std::string>> root_arguments(const SandboxRoot& root, const EvalOptions& options,
                                                const std::string& run_dir) {
  std::vector<std::string> argv;
  std::error_code ec;
  for (const char* folder : kSystemFolders) {
    if (fs::is_symlink(folder, ec))
      argv.insert(argv.end(), {"--symlink", fs::read_symlink(folder, ec).string(), folder});
    else if (fs::is_directory(folder, ec)) argv.insert(argv.end(), {"--ro-bind", folder, folder});
  }
  for (const char* entry : kEtcEntries)
    if (fs::exists(entry, ec)) argv.insert(argv.end(), {"--ro-bind", entry, entry});
  // Users and groups: root and the evaluator's own, no more of the machine's.
  const std::string user = std::to_string(geteuid()), group = std::to_string(getegid());
  std::string passwd = "root:x:0:0:root:/tmp:/usr/sbin/nologin\n", groups = "root:x:0:\n";
  if (geteuid() != 0) passwd += "kmem:x:" + user + ":" + group + ":kmem:/tmp:/usr/sbin/nologin\n";
  if (getegid() != 0) groups += "kmem:x:" + group + ":\n";
  for (auto [name, text] : {std::pair{"passwd", passwd}, std::pair{"group", groups}}) {
    std::string path = run_dir + "/" + name;
    if (auto written = write_file(path, text); !written) return written.error();
    argv.insert(argv.end(), {"--ro-bind", path, std::string("/etc/") + name});
  }
  argv.insert(argv.end(), {"--ro-bind", "/sys", "/sys", "--proc", "/proc", "--dev", "/dev"});
  // The GPU's device nodes (NVIDIA's, the DRI's where present); bubblewrap's
  // --dev has null, zero, full, random, urandom, tty and an empty /dev/shm.
  for (const auto& entry : fs::directory_iterator("/dev", ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("nvidia", 0) == 0 || name == "dri")
      argv.insert(argv.end(), {"--dev-bind", entry.path().string(), entry.path().string()});
  }
  // Shared memory of its own, the System V kind (shmget, message queues,
  // semaphores) included, unless CUDA IPC of the inputs needs the machine's.
  if (shares_dev_shm(options)) argv.insert(argv.end(), {"--bind", "/dev/shm", "/dev/shm"});
  else argv.insert(argv.end(), {"--tmpfs", "/dev/shm", "--unshare-ipc"});
  argv.insert(argv.end(), {"--tmpfs", "/tmp", "--tmpfs", "/run"});
  // After /tmp: an installation found there stays visible.
  for (const std::string& path : chosen_paths(root.paths, {options.cache_dir, run_dir}))
    argv.insert(argv.end(), {"--ro-bind", path, path});
  return argv;
}

}  // namespace kmem::eval
