// Tests of the streaming evaluator with a fake evaluation in place of
// evaluate_stream: concurrent callers each get their own outcome with
// their own job, candidates handed in while an evaluation runs join it,
// an evaluation idle for long enough ends and the next candidate starts
// another, and a candidate an evaluation never answers is an
// evaluator_error rather than a caller waiting forever.
#include "experiment/streaming_evaluator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace kmem {
namespace {

// An evaluation that answers every job given and fed with a pass whose
// detail is the job's candidate, after `cost`; it counts the evaluations
// started and the ids it saw, and leaves unanswered a candidate named "lost".
struct FakeStream {
  std::chrono::milliseconds cost{0};
  std::atomic<int> started{0};
  std::mutex mutex;
  std::set<std::string> ids;

  EvaluationStream function() {
    return [this](const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions&,
                  const std::function<void(const EvalOutcome&)>& on_result) {
      started++;
      auto answer = [&](const EvalJob& job) {
        {
          std::lock_guard lock(mutex);
          EXPECT_TRUE(ids.insert(job.id).second) << "job id handed twice: " << job.id;
        }
        std::this_thread::sleep_for(cost);
        if (job.candidate == "lost") return;
        EvalOutcome outcome;
        outcome.job = job;
        outcome.verdict = "pass";
        outcome.detail = job.candidate;
        on_result(outcome);
      };
      for (const EvalJob& job : jobs) answer(job);
      while (std::optional<EvalJob> job = more()) answer(*job);
    };
  }
};

EvalJob job_of(const std::string& candidate) {
  EvalJob job;
  job.id = "episode-chosen";  // every episode may choose the same id
  job.problem = "p.py";
  job.candidate = candidate;
  return job;
}

TEST(StreamingEvaluator, ConcurrentCallersGetTheirOwnOutcomesFromOneEvaluation) {
  FakeStream fake;
  fake.cost = std::chrono::milliseconds(20);
  auto evaluator = make_streaming_evaluator_over(fake.function(), EvalOptions{}, 2, 0.01, 5);
  std::vector<std::thread> callers;
  std::vector<EvalOutcome> outcomes(12);
  for (size_t i = 0; i < outcomes.size(); ++i)
    callers.emplace_back([&, i] { outcomes[i] = evaluator->evaluate(job_of("c" + std::to_string(i))); });
  for (auto& t : callers) t.join();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    EXPECT_TRUE(outcomes[i].passed());
    EXPECT_EQ(outcomes[i].detail, "c" + std::to_string(i));
    EXPECT_EQ(outcomes[i].job.id, "episode-chosen");  // the caller's job, not the evaluation's id
  }
  EXPECT_EQ(fake.started.load(), 1);  // later candidates were fed to the running evaluation
  EXPECT_EQ(fake.ids.size(), 12u);
}

TEST(StreamingEvaluator, AnEvaluationIdleForTooLongEndsAndTheNextCandidateStartsAnother) {
  FakeStream fake;
  auto evaluator = make_streaming_evaluator_over(fake.function(), EvalOptions{}, 2, 0.0, 0.05);
  EXPECT_EQ(evaluator->evaluate(job_of("first")).detail, "first");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(evaluator->evaluate(job_of("second")).detail, "second");
  EXPECT_EQ(fake.started.load(), 2);
}

TEST(StreamingEvaluator, ACandidateTheEvaluationNeverAnsweredIsAnEvaluatorError) {
  FakeStream fake;
  auto evaluator = make_streaming_evaluator_over(fake.function(), EvalOptions{}, 1, 0.0, 0.05);
  EvalOutcome lost = evaluator->evaluate(job_of("lost"));
  EXPECT_FALSE(lost.passed());
  EXPECT_EQ(lost.verdict, "evaluator_error");
  EXPECT_EQ(lost.job.candidate, "lost");
  EXPECT_EQ(evaluator->evaluate(job_of("after")).detail, "after");  // the evaluator goes on
}

TEST(StreamingEvaluator, DestroyingAnIdleEvaluatorEndsItsEvaluationAtOnce) {
  FakeStream fake;
  auto evaluator = make_streaming_evaluator_over(fake.function(), EvalOptions{}, 1, 0.0, 3600);
  EXPECT_EQ(evaluator->evaluate(job_of("only")).detail, "only");
  auto began = std::chrono::steady_clock::now();
  evaluator.reset();  // the evaluation waits for a feed that would idle for an hour
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(10));
}

}  // namespace
}  // namespace kmem
