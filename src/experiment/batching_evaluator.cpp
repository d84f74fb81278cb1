// An evaluator that gathers the candidates of concurrent episodes into
// batches for evaluate_batch, so candidates of one problem share its
// reference and GPU timing is serialised through the batch's one lock.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "kmem/experiment.h"

namespace kmem {

namespace {

class BatchingEvaluator : public CandidateEvaluator {
 public:
  BatchingEvaluator(const EvalOptions& options, int batch, double gather_s)
      : options_(options), batch_(batch < 1 ? 1 : batch), gather_(std::chrono::duration<double>(gather_s)) {
    options_.parallel = batch_;
    dispatcher_ = std::thread([this] { dispatch(); });
  }
  ~BatchingEvaluator() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    arrived_.notify_all();
    dispatcher_.join();
  }

  EvalOutcome evaluate(const EvalJob& job) override {
    std::promise<EvalOutcome> promise;
    auto result = promise.get_future();
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(Pending{job, std::move(promise)});
    }
    arrived_.notify_all();
    return result.get();
  }

 private:
  struct Pending {
    EvalJob job;
    std::promise<EvalOutcome> result;
  };

  void dispatch() {
    while (true) {
      std::vector<Pending> batch;
      {
        std::unique_lock lock(mutex_);
        arrived_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        // Others arriving about now join this batch.
        arrived_.wait_for(lock, gather_, [&] { return stopping_ || static_cast<int>(queue_.size()) >= batch_; });
        while (!queue_.empty() && static_cast<int>(batch.size()) < batch_) {
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      run(batch);
    }
  }

  // Evaluates a batch; job ids are made unique within it (episodes choose
  // their own) and given back with each outcome.
  void run(std::vector<Pending>& batch) {
    std::vector<EvalJob> jobs;
    for (size_t i = 0; i < batch.size(); ++i) {
      jobs.push_back(batch[i].job);
      jobs.back().id = std::to_string(i);
    }
    std::vector<bool> answered(batch.size(), false);
    evaluate_batch(jobs, options_, [&](const EvalOutcome& outcome) {
      size_t i = std::stoul(outcome.job.id);
      EvalOutcome mine = outcome;
      mine.job = batch[i].job;
      answered[i] = true;
      batch[i].result.set_value(std::move(mine));
    });
    for (size_t i = 0; i < batch.size(); ++i)
      if (!answered[i]) {
        batch[i].result.set_value(rejected_outcome(batch[i].job, "evaluator_error",
                                                   "the batch evaluator returned no outcome for this candidate"));
      }
  }

  EvalOptions options_;
  const int batch_;
  const std::chrono::duration<double> gather_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  std::thread dispatcher_;
};

}  // namespace

std::unique_ptr<CandidateEvaluator> make_batching_evaluator(const EvalOptions& options, int batch, double gather_s) {
  return std::make_unique<BatchingEvaluator>(options, batch, gather_s);
}

}  // namespace kmem
