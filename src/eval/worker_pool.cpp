// Starting workers ahead of the jobs that will take them.
#include "worker_pool.h"

#include <fmt/format.h>

namespace kmem::eval {

// Workers creating their CUDA context at once: KMEM_TUNE_DEVICE_SETUPS, else one per
// four CPUs the workers run on (at least two); no relay on the CPU.
static int device_setups(const EvalOptions& options, const TimingLock& timing_lock) {
  if (options.device != "cuda") return 0;
  if (options.tuning.device_setups > 0) return options.tuning.device_setups;
  int cpus = static_cast<int>(timing_lock.worker_cpus().size());
  return std::max(2, cpus / 4);
}

WorkerPool::WorkerPool(const EvalOptions& options, std::string log_dir, TimingLock& timing_lock,
                       WorkerLauncher& launcher)
    : log_dir_(std::move(log_dir)),
      timing_lock_(timing_lock),
      launcher_(launcher),
      relay_(device_setups(options, timing_lock)) {}

Result<std::unique_ptr<Worker>> WorkerPool::start(const std::string& role) {
  auto baton = relay_.next();
  if (!baton) return baton.error().wrap(role + " worker");
  std::string log = fmt::format("{}/{}-{}.log", log_dir_, role, started_++);
  auto process = launcher_.start(role, log, timing_lock_.worker_cpus(), *baton);
  if (!process) return process.error().wrap(role + " worker");
  return std::make_unique<Worker>(role, std::move(*process), log, timing_lock_);
}

int WorkerPool::missing(const Lane& lane) {
  int wanted = std::min(lane.ahead, lane.remaining);
  return std::max(0, wanted - static_cast<int>(lane.ready.size()));
}

Status WorkerPool::refill(const std::string& role, Lane& lane) {
  while (missing(lane) > 0) {
    auto worker = start(role);
    if (!worker) return worker.error();
    lane.ready.push_back(std::move(*worker));
  }
  return Status::success();
}

Status WorkerPool::expect(const std::string& role, int count, int ahead) {
  std::lock_guard hold(mutex_);
  Lane& lane = lanes_[role];
  lane.remaining += count;
  lane.ahead = ahead;
  if (auto expected = launcher_.expect(role); !expected) return expected.error().wrap(role + " worker");
  return Status::success();
}

void WorkerPool::start_ahead() {
  std::vector<std::string> roles;
  {
    std::lock_guard hold(mutex_);
    for (const auto& [role, lane] : lanes_) roles.push_back(role);
  }
  // One of each role in turn (the first jobs need one of each), taking the
  // lock for one start at a time so that jobs take workers as they come.
  for (bool started = true; started;) {
    started = false;
    for (const auto& role : roles) {
      std::lock_guard hold(mutex_);
      Lane& lane = lanes_[role];
      if (missing(lane) == 0) continue;
      auto worker = start(role);
      if (!worker) return;  // the job that needs one starts it itself, and reports the error
      lane.ready.push_back(std::move(*worker));
      started = true;
    }
  }
}

Result<std::unique_ptr<Worker>> WorkerPool::take(const std::string& role) {
  std::lock_guard hold(mutex_);
  Lane& lane = lanes_[role];
  lane.remaining = std::max(0, lane.remaining - 1);
  std::unique_ptr<Worker> worker;
  if (!lane.ready.empty()) {
    worker = std::move(lane.ready.front());
    lane.ready.pop_front();
  } else {
    auto started = start(role);
    if (!started) return started.error();
    worker = std::move(*started);
  }
  // A replacement that fails to start is that later job's error, not this one's.
  (void)refill(role, lane);
  return worker;
}

}  // namespace kmem::eval
