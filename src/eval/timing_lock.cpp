// The timing lock that pauses the other workers while one is measured.
#include "timing_lock.h"

#include <sched.h>
#include <signal.h>

namespace kmem::eval {

static constexpr int kFewestCpusToKeepOne = 4;

TimingLock::TimingLock() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  if (static_cast<int>(cpus.size()) < kFewestCpusToKeepOne) return;
  timing_cpu_ = cpus.back();
  cpus.pop_back();
  worker_cpus_ = std::move(cpus);
}

void TimingLock::enroll(pid_t group) {
  std::lock_guard guard(mutex_);
  if (!groups_.insert(group).second) return;
  if (held_ && group != holder_ && killpg(group, SIGSTOP) == 0) paused_.insert(group);
}

void TimingLock::withdraw(pid_t group) {
  std::lock_guard guard(mutex_);
  groups_.erase(group);
  if (paused_.erase(group) > 0) killpg(group, SIGCONT);
}

void TimingLock::lock(pid_t holder) {
  std::unique_lock guard(mutex_);
  free_.wait(guard, [this] { return !held_; });
  held_ = true;
  holder_ = holder;
  for (pid_t group : groups_)
    if (group != holder && killpg(group, SIGSTOP) == 0) paused_.insert(group);
}

void TimingLock::unlock() {
  {
    std::lock_guard guard(mutex_);
    for (pid_t group : paused_) killpg(group, SIGCONT);
    paused_.clear();
    held_ = false;
    holder_ = 0;
  }
  free_.notify_one();
}

}  // namespace kmem::eval
