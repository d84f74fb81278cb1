// The CandidateEvaluator of `kmem experiment run --queue`: each evaluation
// is one job of the database's queue, evaluated by whichever `kmem worker`
// claims it (kmem/queue.h).
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "kmem/queue.h"

namespace kmem {

EvalOutcome queued_outcome(const QueuedJob& queued, const EvalJob& job, const std::string& db) {
  if (queued.state == JobState::kFailed)
    return rejected_outcome(job, "evaluator_error", "the job queue failed the job: " + queued.error);
  auto outcome = parse_outcome_json(queued.outcome, fmt::format("{}: job {}", db, queued.id));
  if (!outcome) return rejected_outcome(job, "evaluator_error", outcome.error().message());
  outcome->job = job;
  return *outcome;
}

namespace {

constexpr auto kPoll = std::chrono::milliseconds(200);
constexpr auto kReconnect = std::chrono::seconds(1);

class QueueEvaluator : public CandidateEvaluator {
 public:
  QueueEvaluator(std::string db, EvalOptions options, std::string batch)
      : db_(std::move(db)), options_(std::move(options)), batch_(std::move(batch)) {}

  EvalOutcome evaluate(const EvalJob& job) override {
    auto request = read_eval_request(job);
    if (!request) return rejected_outcome(job, "evaluator_error", request.error().message());
    auto queue = JobQueue::open(db_);
    if (!queue) return rejected_outcome(job, "evaluator_error", queue.error().message());
    auto ids = (*queue)->enqueue(JobKind::kEval, {eval_payload_json(*request, options_)}, batch_);
    if (!ids) return rejected_outcome(job, "evaluator_error", ids.error().message());
    while (true) {
      auto now = (*queue)->jobs(*ids);
      if (!now) {  // the database went away: reach it again; the workers go on meanwhile
        std::cerr << "kmem: " << now.error().message() << "; reconnecting\n";
        std::this_thread::sleep_for(kReconnect);
        if (auto again = JobQueue::open(db_)) queue = std::move(again);
        continue;
      }
      if (now->front().finished()) return queued_outcome(now->front(), job, db_);
      std::this_thread::sleep_for(kPoll);
    }
  }

 private:
  const std::string db_;
  const EvalOptions options_;
  const std::string batch_;
};

}  // namespace

std::unique_ptr<CandidateEvaluator> make_queue_evaluator(const std::string& db, const EvalOptions& options,
                                                         const std::string& batch) {
  return std::make_unique<QueueEvaluator>(db, options, batch);
}

}  // namespace kmem
