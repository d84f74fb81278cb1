// A child process in a process group of its own, speaking lines over pipes:
// the parent writes its stdin and reads its stdout line by line with a
// deadline; its stderr goes to a log file. Killing it kills the whole group.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kmem/result.h"

namespace kmem::eval {

using Clock = std::chrono::steady_clock;

// The parent's environment (KEY=VALUE) with `extra` added to it or replacing
// its entries of the same names.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra);

// "VARIABLE=folder", followed by ":" and the parent's value where it has one
// (a search path with `folder` first).
std::string prepended_entry(const char* variable, const std::string& folder);

struct SpawnSpec {
  std::vector<std::string> argv;
  std::vector<std::string> environment;  // KEY=VALUE, added to (or replacing in) the parent's
  bool inherit_environment = true;       // false: exactly `environment`, nothing of the parent's
  std::string log_path;                  // receives the child's stderr
  std::vector<int> cpus;                 // CPU affinity; empty: the parent's
  int extra_fd = -1;                     // handed to the child as its fd 3; -1: none
};

// The pipes and log of a child about to start: the child's ends become its
// stdin, stdout and stderr, the parent keeps the others.
struct ChildStreams {
  int child_stdin = -1, child_stdout = -1, child_log = -1;
  int parent_stdin = -1, parent_stdout = -1;  // the write end and the read end

  // Opens both pipes (close-on-exec) and creates the log at `log_path`.
  static Result<ChildStreams> open(const std::string& log_path);
  // Once the child has its ends (or will never get them).
  void close_child_ends();
  void close_parent_ends();
};

// How a child ended.
struct ExitStatus {
  bool signaled = false;
  int code = 0;  // the exit code, or the signal number when signaled
  std::string describe() const;
};

// The operating system's side of a worker: a process in a group of its own
// that reads lines and writes lines. ChildProcess is the real one; the tests
// of the scheduler use in-process fakes (src/eval/fake_worker.h).
class LineProcess {
 public:
  enum class Read { kLine, kTimeout, kClosed };

  virtual ~LineProcess() = default;
  // Its pid, which is also its process group id.
  virtual pid_t pid() const = 0;
  // Writes one line to its stdin; false when it is gone.
  virtual bool write_line(const std::string& line) = 0;
  // The next line it wrote (without its newline) into `line`; kTimeout once
  // `deadline` has passed and no line is there.
  virtual Read read_line(Clock::time_point deadline, std::string& line) = 0;
  // Kills the process group and reaps it; idempotent.
  virtual ExitStatus kill_and_reap() = 0;
  // Waits up to `deadline` for it to exit by itself, then kills the group.
  virtual ExitStatus wait_then_kill(Clock::time_point deadline) = 0;
};

class ChildProcess : public LineProcess {
 public:
  static Result<std::unique_ptr<ChildProcess>> spawn(const SpawnSpec& spec);
  // Takes charge of `pid`, a child of this process in a process group of
  // its own that was started elsewhere (see zygote.h), talking over the
  // parent ends of `streams` (whose child ends are closed).
  static std::unique_ptr<ChildProcess> adopt(pid_t pid, const ChildStreams& streams);
  ~ChildProcess() override;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The child's pid, which is also its process group id.
  pid_t pid() const override { return pid_; }
  // Writes one line to the child's stdin; false when the child is gone
  // (no SIGPIPE).
  bool write_line(const std::string& line) override;
  // Closes the child's stdin (end of commands).
  void close_input();
  // The next stdout line (without its newline) into `line`; kTimeout once
  // `deadline` has passed and the pipe holds no line (one there already is
  // still read).
  Read read_line(Clock::time_point deadline, std::string& line) override;
  // Kills the process group and reaps the child (and whatever of its group
  // was re-parented here); idempotent.
  ExitStatus kill_and_reap() override;
  // Waits up to `deadline` for the child to exit by itself, then kills the group.
  ExitStatus wait_then_kill(Clock::time_point deadline) override;

 private:
  ChildProcess(pid_t pid, int in, int out) : pid_(pid), in_(in), out_(out) {}
  pid_t pid_;
  int in_;
  int out_;
  std::string buffer_;
  std::optional<ExitStatus> exit_;
};

// The first executable `program` in the folders of $PATH (/usr/bin:/bin
// when unset), or "" when there is none.
std::string find_on_path(const std::string& program);

// The last `max_bytes` of a file (a log), or "" when unreadable.
std::string read_tail(const std::string& path, size_t max_bytes);

// How much of the end of a worker's log an outcome or an error quotes: enough
// for a compiler's first errors, once for every kind of worker.
inline constexpr size_t kLogTail = 48 * 1024;

}  // namespace kmem::eval
