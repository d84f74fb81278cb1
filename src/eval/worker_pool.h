// Worker processes started ahead of need. Each role has a zygote that
// imports torch and the role's modules once and forks its workers (through
// the WorkerLauncher seam, worker_launcher.h); a worker
// still spends a second or more setting up the device before it can take a
// job, so the pool starts them early, while other jobs run, and a job finds
// one ready. It starts no more than the batch will still take, and workers
// create their CUDA context in a relay (context_relay.h), in the order they
// will be needed. Waiting workers run only our own set-up code, so they are
// not paused by the timing lock; whoever takes a worker enrolls it (a
// candidate once it is built). Every worker is taken once: a candidate
// worker runs one candidate, a reference worker hosts problems for the rest
// of the batch (reference_hosts.h).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "context_relay.h"
#include "kmem/eval.h"
#include "timing_lock.h"
#include "worker.h"
#include "worker_launcher.h"

namespace kmem::eval {

class WorkerPool {
 public:
  // Logs go to `log_dir`/ROLE-N.log; workers come from `launcher`.
  WorkerPool(const EvalOptions& options, std::string log_dir, TimingLock& timing_lock, WorkerLauncher& launcher);

  // The batch will take `count` workers of `role`; keep up to `ahead` of
  // them started before they are asked for. Starts the role's zygote.
  Status expect(const std::string& role, int count, int ahead);
  // Starts the workers expected ahead of need, once every role is expected
  // (so that the zygotes import side by side), the roles taking turns; runs
  // alongside the first jobs, which take the workers as they come. A worker
  // that fails to start is left to the job that needs it (take() starts one
  // itself and the job reports the error).
  void start_ahead();
  // A started worker of `role` (one that is ready, or a new one); the
  // caller enrolls it in the timing lock when its work may use the device.
  Result<std::unique_ptr<Worker>> take(const std::string& role);

 private:
  struct Lane {
    int remaining = 0;  // workers the batch will still take
    int ahead = 0;
    std::deque<std::unique_ptr<Worker>> ready;
  };
  Result<std::unique_ptr<Worker>> start(const std::string& role);
  Status refill(const std::string& role, Lane& lane);
  // How many more workers `lane` should have started now.
  static int missing(const Lane& lane);

  std::string log_dir_;
  TimingLock& timing_lock_;
  WorkerLauncher& launcher_;
  std::mutex mutex_;
  std::map<std::string, Lane> lanes_;
  ContextRelay relay_;
  int started_ = 0;
};

}  // namespace kmem::eval
