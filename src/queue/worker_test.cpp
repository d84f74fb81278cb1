// The worker's loop with a fake batch evaluator, on a real queue (SQLite, and
// PostgreSQL where scripts/test.sh started one): jobs are claimed in
// batches and more as a batch runs, evaluated together, each outcome stored
// once as it comes, leases renewed while a batch runs, and jobs of other
// verdict options kept apart.
#include "kmem/worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "kmem/queue.h"
#include "store/test_database.h"

namespace kmem {
namespace {

using store::Engine;
using store::TestDatabase;

// The payload of a job named `id` whose candidate says `text`.
std::string payload(const std::string& id, const std::string& text, int trials = 5) {
  EvalOptions options;
  options.trials = trials;
  return eval_payload_json({id, "p.py", "x = 1\n", id + ".py", text}, options);
}

// What the fake evaluator was given, batch by batch.
struct Calls {
  std::mutex mutex;
  std::vector<std::vector<std::string>> batches;  // the jobs' candidate files, per call (given, then fed)
  std::vector<size_t> given;                      // how many of them the call was given at its start
  std::vector<int> trials;                        // the options' trials, per call
};

class WorkerTest : public testing::TestWithParam<Engine> {
 protected:
  void SetUp() override {
    if (std::string why = TestDatabase::unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
    db_ = std::make_unique<TestDatabase>(GetParam());
    auto queue = JobQueue::open(db_->url());
    ASSERT_TRUE(queue) << queue.error().message();
    queue_ = std::move(*queue);
    cache_ = std::filesystem::temp_directory_path() / ("kmem_worker_test_" + std::to_string(getpid()));
    options_.db = db_->url();
    options_.name = "w1";
    options_.eval.cache_dir = cache_.string();
    options_.eval.parallel = 2;
    options_.exit_when_idle = true;
    options_.gather_s = 0.05;
    options_.poll_s = 0.05;
  }
  void TearDown() override { std::filesystem::remove_all(cache_); }

  std::vector<std::int64_t> enqueue(const std::vector<std::string>& payloads) {
    auto ids = queue_->enqueue(JobKind::kEval, payloads, "b");
    EXPECT_TRUE(ids) << ids.error().message();
    return ids ? *ids : std::vector<std::int64_t>{};
  }

  // A fake that passes every job after `delay`, one outcome at a time,
  // taking one job more from the feed after each outcome (as a slot frees).
  BatchEvaluator passing(Calls& calls, std::chrono::milliseconds delay = {}) {
    return [&calls, delay](const std::vector<EvalJob>& given, const JobFeed& more, const EvalOptions& options,
                           const std::function<void(const EvalOutcome&)>& on_result) {
      std::deque<EvalJob> jobs(given.begin(), given.end());
      std::vector<std::string> files;
      for (size_t next = 0; next < jobs.size(); ++next) {
        files.push_back(std::filesystem::path(jobs[next].candidate).filename().string());
        std::this_thread::sleep_for(delay);
        EvalOutcome outcome = rejected_outcome(jobs[next], "pass", "");
        outcome.speedup = 2.0;
        on_result(outcome);
        if (std::optional<EvalJob> fed = more ? more() : std::nullopt) jobs.push_back(*fed);
      }
      std::lock_guard hold(calls.mutex);
      calls.batches.push_back(files);
      calls.given.push_back(given.size());
      calls.trials.push_back(options.trials);
    };
  }

  Result<WorkerTally> run() {
    std::atomic<bool> stop = false;
    CurrentLeases current;
    std::mutex writes;
    return run_worker(options_, stop, current, writes);
  }

  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<JobQueue> queue_;
  std::filesystem::path cache_;
  WorkerOptions options_;
};

TEST_P(WorkerTest, ClaimsABatchAndStoresEveryOutcomeOnceUnderTheSubmittersNames) {
  auto ids = enqueue({payload("a", "A"), payload("b", "B"), payload("c", "C")});
  Calls calls;
  options_.evaluate = passing(calls);
  auto tally = run();
  ASSERT_TRUE(tally) << tally.error().message();
  EXPECT_EQ(tally->completed, 3);
  ASSERT_EQ(calls.batches.size(), 1u);  // one batch: 3 jobs <= 4 x parallel
  EXPECT_EQ(calls.batches[0], (std::vector<std::string>{"a.py", "b.py", "c.py"}));
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  for (size_t i = 0; i < jobs->size(); ++i) {
    const QueuedJob& job = (*jobs)[i];
    EXPECT_EQ(job.state, JobState::kDone);
    auto outcome = *parse_outcome_json(job.outcome, "outcome");
    EXPECT_EQ(outcome.verdict, "pass");
    EXPECT_EQ(outcome.job.id, std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(outcome.job.candidate, outcome.job.id + ".py");
  }
}

// A worker draining the queue that is started beside its submitter waits for
// the first job rather than leaving an empty queue at once; with no wait it
// leaves, and once it has worked it leaves as soon as the queue is empty.
TEST_P(WorkerTest, AnIdleWorkerWaitsForItsFirstJobBeforeLeaving) {
  Calls calls;
  options_.evaluate = passing(calls);
  auto empty = run();
  ASSERT_TRUE(empty) << empty.error().message();
  EXPECT_EQ(empty->completed, 0);

  options_.first_job_wait_s = 30;
  std::thread submitter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    enqueue({payload("late", "L")});
  });
  auto started = std::chrono::steady_clock::now();
  auto tally = run();
  submitter.join();
  ASSERT_TRUE(tally) << tally.error().message();
  EXPECT_EQ(tally->completed, 1);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));  // left once drained
}

// A batch starts with at most `batch` jobs claimed and claims the rest one
// by one as its candidates finish: one evaluation for the whole queue.
TEST_P(WorkerTest, ABatchStartsWithAtMostBatchJobsAndClaimsMoreAsItGoes) {
  std::vector<std::string> payloads;
  for (int i = 0; i < 5; ++i) payloads.push_back(payload("j" + std::to_string(i), "X"));
  auto ids = enqueue(payloads);
  Calls calls;
  options_.evaluate = passing(calls);
  options_.batch = 2;
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->completed, 5);
  ASSERT_EQ(calls.batches.size(), 1u);
  EXPECT_EQ(calls.given[0], 2u);
  EXPECT_EQ(calls.batches[0], (std::vector<std::string>{"j0.py", "j1.py", "j2.py", "j3.py", "j4.py"}));
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  for (const QueuedJob& job : *jobs) EXPECT_EQ(parse_outcome_json(job.outcome, "outcome")->verdict, "pass");
}

// With keep_warm_s, a batch whose queue ran empty waits for the next job
// rather than ending: a job submitted a moment after the last one finished
// joins the running evaluation (its workers warm) instead of starting a new
// one (without it, this worker would have left the queue drained: see
// AnIdleWorkerWaitsForItsFirstJobBeforeLeaving).
TEST_P(WorkerTest, AJobSubmittedWhileTheEvaluationIsKeptWarmJoinsIt) {
  Calls calls;
  options_.evaluate = passing(calls);
  options_.keep_warm_s = 2;
  enqueue({payload("a", "A")});
  std::thread submitter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    enqueue({payload("b", "B")});
  });
  auto tally = run();
  submitter.join();
  ASSERT_TRUE(tally) << tally.error().message();
  EXPECT_EQ(tally->completed, 2);
  ASSERT_EQ(calls.batches.size(), 1u);
  EXPECT_EQ(calls.batches[0], (std::vector<std::string>{"a.py", "b.py"}));
}

// A worker stopped while its evaluation is kept warm ends at once, not when
// the keep-warm time is over.
TEST_P(WorkerTest, AStopEndsAnEvaluationKeptWarmAtOnce) {
  enqueue({payload("a", "A")});
  Calls calls;
  options_.evaluate = passing(calls);
  options_.keep_warm_s = 600;
  std::atomic<bool> stop = false;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = true;
  });
  CurrentLeases current;
  std::mutex writes;
  auto started = std::chrono::steady_clock::now();
  auto tally = run_worker(options_, stop, current, writes);
  stopper.join();
  ASSERT_TRUE(tally) << tally.error().message();
  EXPECT_EQ(tally->completed, 1);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
}

// A job the feed claims that wants other verdict options is not run in the
// batch: it starts the next one.
TEST_P(WorkerTest, AJobClaimedWhileABatchRunsWaitsForABatchOfItsOptions) {
  enqueue({payload("a", "A", 5), payload("b", "B", 3), payload("c", "C", 5)});
  Calls calls;
  options_.evaluate = passing(calls);
  options_.batch = 1;
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->completed, 3);
  ASSERT_EQ(calls.batches.size(), 3u);
  EXPECT_EQ(calls.batches[0], (std::vector<std::string>{"a.py"}));
  EXPECT_EQ(calls.batches[1], (std::vector<std::string>{"b.py"}));
  EXPECT_EQ(calls.batches[2], (std::vector<std::string>{"c.py"}));
  EXPECT_EQ(calls.trials, (std::vector<int>{5, 3, 5}));
}

// A job of other verdict options that the feed claims waits for the next
// batch with its lease renewed: while the batch runs on for longer than a
// lease, no other worker can claim it.
TEST_P(WorkerTest, AJobWaitingForABatchOfItsOptionsKeepsItsLease) {
  options_.queue.lease_s = 1;
  options_.heartbeat_s = 0.1;
  options_.batch = 1;
  enqueue({payload("a", "A", 5), payload("b", "B", 3)});
  Calls calls;
  BatchEvaluator pass = passing(calls);
  std::atomic<bool> taken = false;
  int call = 0;
  options_.evaluate = [&](const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions& options,
                          const std::function<void(const EvalOutcome&)>& on_result) {
    if (++call == 1) {
      EXPECT_FALSE(more());  // b is claimed, and waits for a batch of its options
      // a runs on for 1.5 leases while a rival tries to claim.
      QueueOptions rival_options;
      rival_options.lease_s = 1;
      auto rival_queue = JobQueue::open(db_->url(), rival_options);
      for (int i = 0; i < 15; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        auto claimed = (*rival_queue)->claim("rival", {JobKind::kEval});
        if (claimed && *claimed) taken = true;
      }
    }
    pass(jobs, {}, options, on_result);
  };
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_FALSE(taken);
  EXPECT_EQ(tally->completed, 2);
  EXPECT_EQ(tally->dropped, 0);
}

// A worker stopped while a claimed job waits for the next batch gives the
// job back to the queue at once, rather than leaving it to its lease's
// expiry (which would count against its attempts).
TEST_P(WorkerTest, AWorkerStoppedGivesBackTheJobWaitingForTheNextBatch) {
  options_.batch = 1;
  auto ids = enqueue({payload("a", "A", 5), payload("b", "B", 3)});
  std::atomic<bool> stop = false;
  options_.evaluate = [&](const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions&,
                          const std::function<void(const EvalOutcome&)>& on_result) {
    EXPECT_FALSE(more());  // b is claimed, and waits for a batch of its options
    on_result(rejected_outcome(jobs[0], "pass", ""));
    auto reader = JobQueue::open(db_->url());
    for (int i = 0; i < 200; ++i) {  // a is stored before the worker is stopped
      auto seen = (*reader)->jobs({ids[0]});
      if (seen && (*seen)[0].state == JobState::kDone) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop = true;
  };
  CurrentLeases current;
  std::mutex writes;
  auto tally = run_worker(options_, stop, current, writes);
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->completed, 1);
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ((*jobs)[0].state, JobState::kDone);
  EXPECT_EQ((*jobs)[1].state, JobState::kQueued);
  EXPECT_EQ((*jobs)[1].attempts, 0);
  EXPECT_TRUE(current.all().empty());
}

// Once a signal's handler has closed the current leases and given them back
// (kmem worker's SIGTERM), nothing is claimed any more: the jobs stay in the
// queue for the next worker instead of being claimed again before the exit.
TEST_P(WorkerTest, NothingIsClaimedOnceTheLeasesAreClosed) {
  auto ids = enqueue({payload("a", "A"), payload("b", "B")});
  CurrentLeases current;
  std::atomic<bool> stop = false;
  options_.exit_when_idle = true;
  options_.evaluate = [&](const std::vector<EvalJob>&, const JobFeed& more, const EvalOptions&,
                          const std::function<void(const EvalOutcome&)>&) {
    for (const Lease& lease : current.close()) EXPECT_TRUE(queue_->release(lease));  // the handler's part
    EXPECT_FALSE(more());
  };
  options_.batch = 1;
  std::mutex writes;
  auto tally = run_worker(options_, stop, current, writes);
  ASSERT_TRUE(tally) << tally.error().message();
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ((*jobs)[0].state, JobState::kQueued);
  EXPECT_EQ((*jobs)[1].state, JobState::kQueued);
  EXPECT_EQ((*jobs)[1].attempts, 0);
}

TEST_P(WorkerTest, JobsOfOtherVerdictOptionsAreEvaluatedApart) {
  enqueue({payload("a", "A", 5), payload("b", "B", 3), payload("c", "C", 5)});
  Calls calls;
  options_.evaluate = passing(calls);
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->completed, 3);
  ASSERT_EQ(calls.batches.size(), 2u);
  EXPECT_EQ(calls.batches[0], (std::vector<std::string>{"a.py", "c.py"}));
  EXPECT_EQ(calls.trials, (std::vector<int>{5, 3}));
}

TEST_P(WorkerTest, EachOutcomeIsStoredAsSoonAsItIsKnown) {
  auto ids = enqueue({payload("a", "A"), payload("b", "B")});
  Calls calls;
  std::atomic<bool> first_stored_before_second = false;
  options_.evaluate = [&](const std::vector<EvalJob>& jobs, const JobFeed&, const EvalOptions&,
                          const std::function<void(const EvalOutcome&)>& on_result) {
    on_result(rejected_outcome(jobs[0], "pass", ""));
    // The worker stores the first outcome while this batch goes on.
    auto reader = JobQueue::open(db_->url());
    for (int i = 0; i < 200 && !first_stored_before_second; ++i) {
      auto seen = (*reader)->jobs({ids[0]});
      first_stored_before_second = seen && (*seen)[0].state == JobState::kDone;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    on_result(rejected_outcome(jobs[1], "mismatch", ""));
  };
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_TRUE(first_stored_before_second);
  EXPECT_EQ(tally->completed, 2);
}

TEST_P(WorkerTest, LeasesAreRenewedWhileABatchRuns) {
  options_.queue.lease_s = 1;
  options_.heartbeat_s = 0.1;
  auto ids = enqueue({payload("a", "A"), payload("b", "B")});
  Calls calls;
  // Each outcome comes after 1.5 leases: without heartbeats another claimer would take the jobs.
  options_.evaluate = passing(calls, std::chrono::milliseconds(1500));
  std::atomic<bool> taken = false;
  std::thread rival([&] {
    QueueOptions rival_options;
    rival_options.lease_s = 1;
    auto rival_queue = JobQueue::open(db_->url(), rival_options);
    for (int i = 0; i < 25; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      auto claimed = (*rival_queue)->claim("rival", {JobKind::kEval});
      if (claimed && *claimed) taken = true;
    }
  });
  auto tally = run();
  rival.join();
  ASSERT_TRUE(tally);
  EXPECT_FALSE(taken);
  EXPECT_EQ(tally->completed, 2);
  EXPECT_EQ(tally->dropped, 0);
}

TEST_P(WorkerTest, AJobTheEvaluatorGaveNoOutcomeForIsAnEvaluatorError) {
  auto ids = enqueue({payload("a", "A"), payload("b", "B")});
  options_.evaluate = [](const std::vector<EvalJob>& jobs, const JobFeed&, const EvalOptions&,
                         const std::function<void(const EvalOutcome&)>& on_result) {
    on_result(rejected_outcome(jobs[1], "pass", ""));
  };
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->completed, 2);
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(parse_outcome_json((*jobs)[0].outcome, "outcome")->verdict, "evaluator_error");
  EXPECT_EQ(parse_outcome_json((*jobs)[1].outcome, "outcome")->verdict, "pass");
}

TEST_P(WorkerTest, AnUnreadablePayloadFailsItsJobAlone) {
  auto ids = enqueue({R"({"id": "broken"})", payload("b", "B")});
  Calls calls;
  options_.evaluate = passing(calls);
  auto tally = run();
  ASSERT_TRUE(tally);
  EXPECT_EQ(tally->failed, 1);
  EXPECT_EQ(tally->completed, 1);
  auto jobs = queue_->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ((*jobs)[0].state, JobState::kFailed);
  EXPECT_NE((*jobs)[0].error.find("problem"), std::string::npos) << (*jobs)[0].error;
  EXPECT_EQ((*jobs)[1].state, JobState::kDone);
}

INSTANTIATE_TEST_SUITE_P(Engines, WorkerTest, testing::Values(Engine::kSqlite, Engine::kPostgres), store::engine_name);

}  // namespace
}  // namespace kmem
