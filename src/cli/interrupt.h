// Ends everything kmem started when kmem is interrupted (SIGINT, SIGTERM,
// SIGHUP). The evaluator runs each worker, reference host and zygote in a
// process group of its own (their compilers inside it) and, as their
// subreaper, has every one of them as its own child; so on a signal a
// watcher thread, woken through a pipe by the handler, takes the lock the
// caller holds around its writes (a results line is written whole or not at
// all), runs the caller's last words, kills the group of every child of this
// process until none is left, and exits with 128 + the signal.
#pragma once

#include <sys/types.h>

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kmem::cli {

class InterruptGuard {
 public:
  // `last_words` runs once on a signal, before the children are killed (say
  // what was kept; put files in order).
  explicit InterruptGuard(std::function<void(int signal)> last_words);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // Held around every write that must not be cut short.
  std::mutex& writes() { return writes_; }

 private:
  void watch();
  std::function<void(int)> last_words_;
  std::mutex writes_;
  int wake_[2] = {-1, -1};
  std::thread watcher_;
};

// The living (not yet exited) children of process `parent`, read from /proc.
std::vector<pid_t> living_children(pid_t parent);

}  // namespace kmem::cli
