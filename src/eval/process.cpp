// Spawning a worker in its own process group (fork + setpgid + exec) or
// adopting one a zygote forked, line I/O with deadlines (poll), group kill.
// A child that is gone makes a write fail, never kill the orchestrator:
// SIGPIPE is held back for the writing thread (no process-wide setting).
#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

extern char** environ;

namespace kmem::eval {

std::string ExitStatus::describe() const {
  if (signaled) return "killed by signal " + std::to_string(code) + " (" + strsignal(code) + ")";
  return "exited with code " + std::to_string(code);
}

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> entries;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    entries[entry.substr(0, entry.find('='))] = entry;
  }
  for (const auto& entry : extra) entries[entry.substr(0, entry.find('='))] = entry;
  std::vector<std::string> merged;
  for (auto& [key, entry] : entries) merged.push_back(entry);
  return merged;
}

std::string prepended_entry(const char* variable, const std::string& folder) {
  const char* current = std::getenv(variable);
  return std::string(variable) + "=" + folder +
         (current != nullptr && *current != '\0' ? ":" + std::string(current) : "");
}

static std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= folders.size()) {
    size_t end = folders.find(':', start);
    if (end == std::string::npos) end = folders.size();
    std::string candidate = folders.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// `program` itself when it names a path, else its first match on $PATH (or
// the bare name, for exec to report).
static std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  std::string found = find_on_path(program);
  return found.empty() ? program : found;
}

static void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

Result<ChildStreams> ChildStreams::open(const std::string& log_path) {
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) return Error(std::string("pipe: ") + strerror(errno));
  ChildStreams streams;
  streams.child_stdin = to_child[0];
  streams.parent_stdin = to_child[1];
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    streams.close_child_ends();
    streams.close_parent_ends();
    return Error(std::string("pipe: ") + strerror(errno));
  }
  streams.parent_stdout = from_child[0];
  streams.child_stdout = from_child[1];
  streams.child_log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (streams.child_log < 0) {
    std::string error = log_path + ": cannot create log: " + strerror(errno);
    streams.close_child_ends();
    streams.close_parent_ends();
    return Error(error);
  }
  return streams;
}

void ChildStreams::close_child_ends() {
  close_fd(child_stdin);
  close_fd(child_stdout);
  close_fd(child_log);
}

void ChildStreams::close_parent_ends() {
  close_fd(parent_stdin);
  close_fd(parent_stdout);
}

std::unique_ptr<ChildProcess> ChildProcess::adopt(pid_t pid, const ChildStreams& streams) {
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, streams.parent_stdin, streams.parent_stdout));
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) return Error("spawn: empty command");
  // Everything the child needs is prepared before fork: after it, only
  // async-signal-safe calls (this runs in a multi-threaded program).
  std::vector<std::string> argv_strings = spec.argv;
  argv_strings[0] = find_program(argv_strings[0]);
  std::vector<std::string> env_strings =
      spec.inherit_environment ? merged_environment(spec.environment) : spec.environment;
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<char*> envp = c_strings(env_strings);
  auto streams = ChildStreams::open(spec.log_path);
  if (!streams) return streams.error();
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : spec.cpus) CPU_SET(cpu, &cpus);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    if (!spec.cpus.empty()) sched_setaffinity(0, sizeof cpus, &cpus);
    dup2(streams->child_stdin, 0);
    dup2(streams->child_stdout, 1);
    dup2(streams->child_log, 2);
    if (spec.extra_fd == 3) fcntl(3, F_SETFD, 0);  // dup2 onto itself would leave it close-on-exec
    else if (spec.extra_fd >= 0) dup2(spec.extra_fd, 3);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  streams->close_child_ends();
  if (pid < 0) {
    streams->close_parent_ends();
    return Error(std::string("fork: ") + strerror(errno));
  }
  setpgid(pid, pid);  // also here, so a kill right after spawn finds the group
  return adopt(pid, *streams);
}

ChildProcess::~ChildProcess() {
  kill_and_reap();
  close_input();
  if (out_ >= 0) close(out_);
}

// Writes all of `data` to `fd`; false on a reader that is gone (EPIPE).
// The SIGPIPE such a write raises goes to the writing thread, which holds
// it blocked meanwhile and takes it back before unblocking.
static bool write_all(int fd, const std::string& data) {
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  size_t done = 0;
  bool broken = false;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken = n < 0 && errno == EPIPE;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (broken && !sigismember(&previous, SIGPIPE)) {
    struct timespec now {
      0, 0
    };
    while (sigtimedwait(&pipe_signal, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return done == data.size();
}

bool ChildProcess::write_line(const std::string& line) { return in_ >= 0 && write_all(in_, line + "\n"); }

void ChildProcess::close_input() {
  if (in_ >= 0) close(in_);
  in_ = -1;
}

ChildProcess::Read ChildProcess::read_line(Clock::time_point deadline, std::string& line) {
  constexpr int kLateChunks = 16;  // of 64 KiB
  int late_chunks = 0;
  for (;;) {
    size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return Read::kLine;
    }
    if (out_ < 0) return Read::kClosed;
    // Past the deadline, what the pipe holds already is still read (up to
    // kLateChunks chunks): an answer that came in time is not lost to a
    // caller that came late.
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 && late_chunks++ >= kLateChunks) return Read::kTimeout;
    struct pollfd p {
      out_, POLLIN, 0
    };
    int ready = poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 0, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return Read::kTimeout;
    char chunk[65536];
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(out_);
      out_ = -1;
      if (!buffer_.empty()) {  // a last line without its newline
        line = std::move(buffer_);
        buffer_.clear();
        return Read::kLine;
      }
      return Read::kClosed;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

static ExitStatus decode(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

ExitStatus ChildProcess::kill_and_reap() {
  if (exit_) return *exit_;
  // The child is not reaped yet, so its pid (the group id) cannot be reused:
  // this reaches the child and whatever it left in its group.
  kill(-pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_ = decode(status);
  // Members of the group that outlived the child come here when this
  // process is a subreaper (zygote.h); reap the ones already gone.
  while (waitpid(-pid_, nullptr, WNOHANG) > 0) {
  }
  return *exit_;
}

ExitStatus ChildProcess::wait_then_kill(Clock::time_point deadline) {
  while (!exit_ && Clock::now() < deadline) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_)
      break;  // exited; left unreaped so kill_and_reap still owns the group id
    usleep(2000);
  }
  return kill_and_reap();
}

std::string read_tail(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  auto size = static_cast<size_t>(in.tellg());
  size_t start = size > max_bytes ? size - max_bytes : 0;
  in.seekg(static_cast<std::streamoff>(start));
  std::string text(size - start, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

}  // namespace kmem::eval
