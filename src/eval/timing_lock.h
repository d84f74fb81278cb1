// The timing lock: one measurement at a time on the device, and while a worker
// holds it every other worker process group is paused (SIGSTOP), so neither
// correctness trials, builds nor reference preparations of other candidates
// share the GPU (or the CPU) with the calls being timed. Resumed (SIGCONT) on
// release. Workers enroll their process group when they first talk to the
// orchestrator and withdraw when they are reaped.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <set>

namespace kmem::eval {

class TimingLock {
 public:
  void enroll(pid_t group);
  void withdraw(pid_t group);

  // Waits for the lock, then pauses every enrolled group but `holder`'s.
  void lock(pid_t holder);
  void unlock();

 private:
  std::mutex mutex_;
  std::condition_variable free_;
  bool held_ = false;
  pid_t holder_ = 0;
  std::set<pid_t> groups_;
  std::set<pid_t> paused_;
};

}  // namespace kmem::eval
