// The timing lock: one measurement at a time on the device, and while a worker
// holds it every other enrolled worker process group is paused (SIGSTOP), so
// neither correctness trials nor reference preparations of other candidates
// share the GPU (or the CPU) with the calls being timed. Resumed (SIGCONT) on
// release. A reference worker is enrolled when a problem takes it, a
// candidate once it reports `built` (its build, compilers on the CPU, goes on
// while others measure); both withdraw when they are reaped.
//
// Where the machine has four or more CPUs for us, one is kept for the timed
// calls: workers start on the others (off its SMT siblings too) and the
// holder lets its launching thread run on that one too while it measures,
// so one core at least is free of workers still starting up (which are not
// paused). The thread is not pinned to it: see python/kmem_worker/channel.py.
//
// The grant also carries the fastest probe of the host's speed that trusted
// (reference) workers reported, the measure of the host's usual speed that
// timing a host-bound model needs (python/kmem_worker/host_speed.py). It
// also keeps the harness's overhead per timed call that reference workers
// showed, which calibrates the check of candidates' times against the wall
// clock (timing_check.h).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <vector>

namespace kmem::eval {

class TimingLock {
 public:
  // How a process group is paused and resumed: killpg(group, SIGSTOP or
  // SIGCONT), or a fake's (tests of the scheduler, whose workers are no processes).
  using SignalGroup = std::function<int(pid_t group, int signal)>;
  explicit TimingLock(SignalGroup signal_group = ::killpg);

  // The CPU kept for timed calls (-1: none), and the CPUs workers start on
  // (empty: all).
  int timing_cpu() const { return timing_cpu_; }
  const std::vector<int>& worker_cpus() const { return worker_cpus_; }

  void enroll(pid_t group);
  void withdraw(pid_t group);

  // Waits for the lock, then pauses every enrolled group but `holder`'s and
  // `companion`'s (0: none; a candidate's reference worker, whose Stager
  // copies each call's inputs while it measures: python/kmem_worker/harness.cpp).
  // Callers get it in the order they asked: one that asks later never
  // overtakes a waiting one (a reference worker waiting to time its problem
  // holds up every other problem it serves).
  void lock(pid_t holder, pid_t companion = 0);
  void unlock();

  // Takes in a probe of the host's speed from a trusted worker (ms > 0).
  void note_host_probe(double ms);
  // The fastest probe noted (0: none yet).
  double fastest_host_probe_ms() const;

  // Takes in the harness's overhead per call seen on a trusted (reference)
  // worker's timed phase: its wall time held less what its calls measured,
  // per call (src/eval/timing_check.h). The largest is kept: it bounds what
  // an honest candidate's phase may take beyond its calls.
  void note_call_overhead(double ms);
  // The largest overhead noted (0: none yet).
  double call_overhead_ms() const;

 private:
  SignalGroup signal_group_;
  mutable std::mutex mutex_;
  std::condition_variable free_;
  bool held_ = false;
  uint64_t next_ticket_ = 0;  // handed to the next caller of lock()
  uint64_t serving_ = 0;      // the ticket whose turn it is
  pid_t holder_ = 0, companion_ = 0;
  std::set<pid_t> groups_;
  std::set<pid_t> paused_;
  int timing_cpu_ = -1;
  std::vector<int> worker_cpus_;
  double fastest_host_probe_ms_ = 0.0;
  double call_overhead_ms_ = 0.0;
};

}  // namespace kmem::eval
