// The in-process JobService: a bounded queue drained by a fixed number of
// worker threads, and the finished jobs kept (the oldest dropped first) so
// clients can ask for them after they ended.
#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "kmem/serve.h"

namespace kmem {
namespace {

class LocalJobService final : public JobService {
 public:
  LocalJobService(JobExecutor executor, int workers, std::size_t max_pending, std::size_t keep_finished)
      : executor_(std::move(executor)),
        max_pending_(max_pending),
        keep_finished_(keep_finished),
        prefix_(fmt::format("{:08x}", std::random_device()())) {
    for (int i = 0; i < std::max(1, workers); ++i) threads_.emplace_back([this] { drain(); });
  }

  ~LocalJobService() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  Result<std::string> submit(const JobRequest& request) override {
    std::lock_guard lock(mutex_);
    if (pending_ >= max_pending_)
      return Error(fmt::format("{} jobs are waiting or running already (the limit); try again later", pending_));
    std::string id = fmt::format("{}-{}-{}", request.kind == "episode" ? "ep" : "ev", prefix_, ++serial_);
    jobs_[id] = Entry{request, JobStatus{id, request.kind, "queued", "", ""}};
    queue_.push_back(id);
    ++pending_;
    work_cv_.notify_one();
    return id;
  }

  std::optional<JobStatus> status(const std::string& id) override {
    std::lock_guard lock(mutex_);
    auto found = jobs_.find(id);
    if (found == jobs_.end()) return std::nullopt;
    return found->second.status;
  }

  std::optional<JobStatus> wait(const std::string& id, std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mutex_);
    auto finished_or_gone = [&] {
      auto found = jobs_.find(id);
      return found == jobs_.end() || found->second.status.finished() || stopping_;
    };
    done_cv_.wait_for(lock, timeout, finished_or_gone);
    auto found = jobs_.find(id);
    if (found == jobs_.end()) return std::nullopt;
    return found->second.status;
  }

 private:
  struct Entry {
    JobRequest request;
    JobStatus status;
  };

  void drain() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      std::string id = queue_.front();
      queue_.pop_front();
      Entry& entry = jobs_.at(id);
      entry.status.state = "running";
      JobRequest request = entry.request;
      lock.unlock();
      Result<std::string> result = executor_(request);
      lock.lock();
      Entry& done = jobs_.at(id);
      done.status.state = result ? "done" : "failed";
      if (result) done.status.result_json = std::move(*result);
      else done.status.error = result.error().message();
      done.request.payload_json.clear();
      --pending_;
      finished_.push_back(id);
      while (finished_.size() > keep_finished_) {
        jobs_.erase(finished_.front());
        finished_.pop_front();
      }
      done_cv_.notify_all();
    }
  }

  JobExecutor executor_;
  const std::size_t max_pending_, keep_finished_;
  // Ids are <kind>-<prefix>-<serial>: a random prefix per service, so an id
  // a client kept from before a restart names no new job.
  const std::string prefix_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::map<std::string, Entry> jobs_;
  std::deque<std::string> queue_, finished_;
  std::size_t pending_ = 0;
  unsigned long serial_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<JobService> make_local_job_service(JobExecutor executor, int workers, std::size_t max_pending,
                                                   std::size_t keep_finished) {
  return std::make_unique<LocalJobService>(std::move(executor), workers, max_pending, keep_finished);
}

}  // namespace kmem
