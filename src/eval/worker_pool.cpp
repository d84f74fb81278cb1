// Starting workers ahead of the jobs that will take them.
#include "worker_pool.h"

#include <fmt/format.h>

namespace kmem::eval {

Result<std::unique_ptr<Worker>> WorkerPool::start(const std::string& role) {
  std::string log = fmt::format("{}/{}-{}.log", log_dir_, role, started_++);
  return Worker::start(role, options_, log, timing_lock_.worker_cpus());
}

Status WorkerPool::refill(const std::string& role, Lane& lane) {
  while (static_cast<int>(lane.ready.size()) < std::min(lane.ahead, lane.remaining)) {
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
  return refill(role, lane);
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
  worker->enroll(timing_lock_);
  // A replacement that fails to start is that later job's error, not this one's.
  (void)refill(role, lane);
  return worker;
}

}  // namespace kmem::eval
