// An evaluator that hands the candidates of concurrent episodes to one
// running evaluation (evaluate_stream), so that candidates share references,
// workers and the timing lock, and a candidate handed in while others run
// starts as soon as the evaluation has room rather than in the next batch.
#include "experiment/streaming_evaluator.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "kmem/experiment.h"

namespace kmem {

namespace {

class StreamingEvaluator : public CandidateEvaluator {
 public:
  StreamingEvaluator(EvaluationStream stream, const EvalOptions& options, int parallel, double gather_s, double idle_s)
      : stream_(std::move(stream)),
        options_(options),
        parallel_(parallel < 1 ? 1 : parallel),
        gather_(std::chrono::duration<double>(gather_s)),
        idle_(std::chrono::duration<double>(idle_s)) {
    options_.parallel = parallel_;
    dispatcher_ = std::thread([this] { dispatch(); });
  }
  ~StreamingEvaluator() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    arrived_.notify_all();
    dispatcher_.join();
  }

  EvalOutcome evaluate(const EvalJob& job) override {
    std::future<EvalOutcome> result;
    {
      std::lock_guard lock(mutex_);
      // Job ids are made unique across the evaluator (episodes choose their own).
      std::string id = std::to_string(next_id_++);
      Pending& pending = pending_[id];
      pending.job = job;
      result = pending.result.get_future();
      EvalJob handed = job;
      handed.id = id;
      queue_.push_back(std::move(handed));
    }
    arrived_.notify_all();
    return result.get();
  }

 private:
  struct Pending {
    EvalJob job;  // as the episode gave it
    std::promise<EvalOutcome> result;
  };

  // One evaluation after another: each starts with the jobs waiting (and
  // those arriving within gather_, up to parallel_) and is fed every job
  // handed in while it runs, until none came for idle_ or the evaluator is
  // destroyed.
  void dispatch() {
    while (true) {
      std::vector<EvalJob> first;
      {
        std::unique_lock lock(mutex_);
        arrived_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        arrived_.wait_for(lock, gather_, [&] { return stopping_ || static_cast<int>(queue_.size()) >= parallel_; });
        while (!queue_.empty() && static_cast<int>(first.size()) < parallel_) first.push_back(take_locked());
      }
      stream_(
          first, [this] { return next_job(); }, options_, [this](const EvalOutcome& o) { answer(o); });
      answer_unanswered();
    }
  }

  // The next job handed in, waiting up to idle_ for one; none ends the
  // current evaluation (its workers are let go while episodes wait for
  // their models).
  std::optional<EvalJob> next_job() {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, idle_, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return std::nullopt;
    return take_locked();
  }

  EvalJob take_locked() {
    EvalJob job = std::move(queue_.front());
    queue_.pop_front();
    handed_.push_back(job.id);
    return job;
  }

  void answer(const EvalOutcome& outcome) {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(outcome.job.id);
    if (it == pending_.end()) return;
    EvalOutcome mine = outcome;
    mine.job = it->second.job;
    it->second.result.set_value(std::move(mine));
    pending_.erase(it);
  }

  // Every job the last evaluation took but gave no outcome for.
  void answer_unanswered() {
    std::lock_guard lock(mutex_);
    for (const std::string& id : handed_) {
      auto it = pending_.find(id);
      if (it == pending_.end()) continue;
      it->second.result.set_value(
          rejected_outcome(it->second.job, "evaluator_error", "the evaluation returned no outcome for this candidate"));
      pending_.erase(it);
    }
    handed_.clear();
  }

  const EvaluationStream stream_;
  EvalOptions options_;
  const int parallel_;
  const std::chrono::duration<double> gather_;
  const std::chrono::duration<double> idle_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<EvalJob> queue_;               // handed in, not yet taken by an evaluation
  std::map<std::string, Pending> pending_;  // handed in, not yet answered
  std::vector<std::string> handed_;         // taken by the current evaluation
  long next_id_ = 0;
  bool stopping_ = false;
  std::thread dispatcher_;
};

}  // namespace

std::unique_ptr<CandidateEvaluator> make_streaming_evaluator_over(EvaluationStream stream, const EvalOptions& options,
                                                                  int parallel, double gather_s, double idle_s) {
  return std::make_unique<StreamingEvaluator>(std::move(stream), options, parallel, gather_s, idle_s);
}

std::unique_ptr<CandidateEvaluator> make_streaming_evaluator(const EvalOptions& options, int parallel, double gather_s,
                                                             double idle_s) {
  return make_streaming_evaluator_over(evaluate_stream, options, parallel, gather_s, idle_s);
}

}  // namespace kmem
