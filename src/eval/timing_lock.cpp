// The timing lock that pauses the other workers while one is measured.
#include "timing_lock.h"

#include <signal.h>

namespace kmem::eval {

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
