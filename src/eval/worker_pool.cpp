// Starting workers ahead of the jobs that will take them.
#include "worker_pool.h"

#include <fmt/format.h>

namespace kmem::eval {

Result<Zygote*> WorkerPool::zygote(const std::string& role) {
  auto& zygote = zygotes_[role];
  if (!zygote) {
    auto started = Zygote::start(role, options_, fmt::format("{}/zygote-{}.log", log_dir_, role),
                                 timing_lock_.worker_cpus());
    if (!started) return started.error();
    zygote = std::move(*started);
  }
  return zygote.get();
}

Result<std::unique_ptr<Worker>> WorkerPool::start(const std::string& role) {
  auto zygote = this->zygote(role);
  if (!zygote) return zygote.error().wrap(role + " worker");
  std::string log = fmt::format("{}/{}-{}.log", log_dir_, role, started_++);
  auto worker = Worker::start(**zygote, log, timing_lock_.worker_cpus());
  if (!worker) return worker.error().wrap(role + " worker");
  return worker;
}

Status WorkerPool::refill(const std::string& role, Lane& lane) {
  int wanted = std::min(lane.given_back ? lane.ahead - lane.out : lane.ahead, lane.remaining);
  while (static_cast<int>(lane.ready.size()) < wanted) {
    auto worker = start(role);
    if (!worker) return worker.error();
    lane.ready.push_back(std::move(*worker));
  }
  return Status::success();
}

Status WorkerPool::expect(const std::string& role, int count, int ahead, bool given_back) {
  std::lock_guard hold(mutex_);
  Lane& lane = lanes_[role];
  lane.remaining += count;
  lane.ahead = ahead;
  lane.given_back = given_back;
  auto zygote = this->zygote(role);
  if (!zygote) return zygote.error().wrap(role + " worker");
  return Status::success();
}

Status WorkerPool::start_ahead() {
  std::lock_guard hold(mutex_);
  for (auto& [role, lane] : lanes_)
    if (auto filled = refill(role, lane); !filled) return filled;
  return Status::success();
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
  if (lane.given_back) lane.out++;
  // A replacement that fails to start is that later job's error, not this one's.
  (void)refill(role, lane);
  return worker;
}

void WorkerPool::give_back(const std::string& role, std::unique_ptr<Worker> worker) {
  std::lock_guard hold(mutex_);
  Lane& lane = lanes_[role];
  lane.out = std::max(0, lane.out - 1);
  if (lane.remaining > static_cast<int>(lane.ready.size())) lane.ready.push_front(std::move(worker));
}

}  // namespace kmem::eval
