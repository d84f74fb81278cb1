// The timing lock that pauses the other workers while one is measured.
#include "timing_lock.h"

#include <sched.h>
#include <signal.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace kmem::eval {

static constexpr int kFewestCpusToKeepOne = 4;

// The CPUs that share a core with `cpu` (its SMT siblings, itself included),
// from the kernel's topology list ("3,11" or "2-3"); just `cpu` if unknown.
static std::set<int> core_of(int cpu) {
  std::ifstream list("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list");
  std::set<int> siblings{cpu};
  std::string range;
  while (std::getline(list, range, ',')) {
    int first = 0, last = 0;
    char dash = 0;
    std::istringstream parse(range);
    if (!(parse >> first)) break;
    if (!(parse >> dash >> last)) last = first;
    for (int sibling = first; sibling <= last && sibling < CPU_SETSIZE; ++sibling) siblings.insert(sibling);
  }
  return siblings;
}

TimingLock::TimingLock(SignalGroup signal_group) : signal_group_(std::move(signal_group)) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  if (static_cast<int>(cpus.size()) < kFewestCpusToKeepOne) return;
  timing_cpu_ = cpus.back();
  // Workers keep off the whole core: a sibling busy with an import slows
  // the launching thread as much as a shared CPU would.
  std::set<int> kept = core_of(timing_cpu_);
  for (int cpu : cpus)
    if (!kept.count(cpu)) worker_cpus_.push_back(cpu);
  if (static_cast<int>(worker_cpus_.size()) < kFewestCpusToKeepOne - 1) {
    timing_cpu_ = -1;
    worker_cpus_.clear();
  }
}

void TimingLock::enroll(pid_t group) {
  std::lock_guard guard(mutex_);
  if (!groups_.insert(group).second) return;
  if (held_ && group != holder_ && group != companion_ && signal_group_(group, SIGSTOP) == 0) paused_.insert(group);
}

void TimingLock::withdraw(pid_t group) {
  std::lock_guard guard(mutex_);
  groups_.erase(group);
  if (paused_.erase(group) > 0) signal_group_(group, SIGCONT);
}

void TimingLock::lock(pid_t holder, pid_t companion) {
  std::unique_lock guard(mutex_);
  const uint64_t ticket = next_ticket_++;
  free_.wait(guard, [&] { return serving_ == ticket; });  // the holder before it has unlocked
  held_ = true;
  holder_ = holder;
  companion_ = companion;
  for (pid_t group : groups_)
    if (group != holder && group != companion && signal_group_(group, SIGSTOP) == 0) paused_.insert(group);
}

void TimingLock::unlock() {
  {
    std::lock_guard guard(mutex_);
    if (!held_) return;  // not held: no turn to pass on
    for (pid_t group : paused_) signal_group_(group, SIGCONT);
    paused_.clear();
    held_ = false;
    holder_ = 0;
    companion_ = 0;
    ++serving_;
  }
  free_.notify_all();  // the next ticket's caller among the waiters
}

void TimingLock::note_host_probe(double ms) {
  std::lock_guard guard(mutex_);
  if (ms > 0 && (fastest_host_probe_ms_ == 0 || ms < fastest_host_probe_ms_)) fastest_host_probe_ms_ = ms;
}

double TimingLock::fastest_host_probe_ms() const {
  std::lock_guard guard(mutex_);
  return fastest_host_probe_ms_;
}

void TimingLock::note_call_overhead(double ms) {
  std::lock_guard guard(mutex_);
  if (ms > call_overhead_ms_) call_overhead_ms_ = ms;
}

double TimingLock::call_overhead_ms() const {
  std::lock_guard guard(mutex_);
  return call_overhead_ms_;
}

}  // namespace kmem::eval
