// The job queue's semantics on both engines: claims in order under a lease,
// heartbeats that keep a job, an expired lease claimable again, a
// completion (or heartbeat, failure, release) under a lease taken over
// refused, exactly one outcome per job, a job that outlives its attempts
// failed, and concurrent claimers (PostgreSQL: SKIP LOCKED) never sharing a job.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "kmem/queue.h"
#include "store/test_database.h"

namespace kmem {
namespace {

using namespace std::chrono_literals;

class JobQueueTest : public ::testing::TestWithParam<store::Engine> {
 protected:
  void SetUp() override {
    if (std::string why = store::TestDatabase::unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
    db_ = std::make_unique<store::TestDatabase>(GetParam());
  }
  std::unique_ptr<JobQueue> open(QueueOptions options = {}) {
    auto queue = JobQueue::open(db_->url(), options);
    EXPECT_TRUE(queue) << queue.error().message();
    return queue ? std::move(*queue) : nullptr;
  }
  std::vector<std::int64_t> enqueue(JobQueue& q, int n) {
    std::vector<std::string> payloads;
    for (int i = 0; i < n; ++i) payloads.push_back(R"({"n":)" + std::to_string(i) + "}");
    auto ids = q.enqueue(JobKind::kEval, payloads, "test");
    EXPECT_TRUE(ids) << ids.error().message();
    return ids ? *ids : std::vector<std::int64_t>{};
  }
  ClaimedJob claim(JobQueue& q, const std::string& worker) {
    auto claimed = q.claim(worker, {JobKind::kEval});
    EXPECT_TRUE(claimed) << claimed.error().message();
    EXPECT_TRUE(claimed && *claimed) << worker << " claimed nothing";
    return claimed && *claimed ? **claimed : ClaimedJob{};
  }
  bool nothing_to_claim(JobQueue& q) {
    auto claimed = q.claim("anyone", {JobKind::kEval, JobKind::kEpisode});
    return claimed && !*claimed;
  }

  std::unique_ptr<store::TestDatabase> db_;
};

TEST_P(JobQueueTest, ClaimsTheOldestJobOfTheFirstKindThatHasOne) {
  auto q = open();
  auto episode = q->enqueue(JobKind::kEpisode, {R"({"e":1})"}, "b");
  ASSERT_TRUE(episode);
  auto ids = enqueue(*q, 2);
  auto first = q->claim("w", {JobKind::kEval, JobKind::kEpisode});
  ASSERT_TRUE(first && *first);
  EXPECT_EQ((*first)->job.id, ids[0]);
  EXPECT_EQ((*first)->job.state, JobState::kClaimed);
  EXPECT_EQ((*first)->job.payload, R"({"n":0})");
  EXPECT_EQ((*first)->lease.attempt, 1);
  EXPECT_EQ(claim(*q, "w").job.id, ids[1]);
  auto last = q->claim("w", {JobKind::kEval, JobKind::kEpisode});  // evals first, then episodes
  ASSERT_TRUE(last && *last);
  EXPECT_EQ((*last)->job.id, (*episode)[0]);
  EXPECT_EQ((*last)->job.kind, JobKind::kEpisode);
  EXPECT_TRUE(nothing_to_claim(*q));
}

TEST_P(JobQueueTest, RefusesAPayloadThatIsNoJsonObject) {
  auto q = open();
  auto ids = q->enqueue(JobKind::kEval, {R"({"ok":1})", "[1]"}, "b");
  ASSERT_FALSE(ids);
  EXPECT_NE(ids.error().message().find("payload 1 of batch 'b' is not a JSON object"), std::string::npos)
      << ids.error().message();
  EXPECT_TRUE(nothing_to_claim(*q));  // nothing of the batch was enqueued
}

TEST_P(JobQueueTest, CompletesExactlyOnce) {
  auto q = open();
  auto ids = enqueue(*q, 1);
  ClaimedJob c = claim(*q, "w");
  auto done = q->complete(c.lease, R"({"verdict":"pass"})");
  ASSERT_TRUE(done) << done.error().message();
  EXPECT_TRUE(*done);
  auto twice = q->complete(c.lease, R"({"verdict":"other"})");
  ASSERT_TRUE(twice);
  EXPECT_FALSE(*twice);
  auto jobs = q->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->at(0).state, JobState::kDone);
  EXPECT_EQ(jobs->at(0).outcome, R"({"verdict":"pass"})");
  EXPECT_TRUE(jobs->at(0).finished());
  EXPECT_TRUE(nothing_to_claim(*q));
}

TEST_P(JobQueueTest, AnExpiredLeaseIsClaimedAgainAndTheFormerHolderIsRefused) {
  auto q = open(QueueOptions{.lease_s = 0.5, .max_attempts = 3});
  auto ids = enqueue(*q, 1);
  ClaimedJob a = claim(*q, "a");
  EXPECT_TRUE(nothing_to_claim(*q));  // held
  std::this_thread::sleep_for(700ms);
  ClaimedJob b = claim(*q, "b");
  EXPECT_EQ(b.job.id, a.job.id);
  EXPECT_EQ(b.lease.attempt, 2);
  EXPECT_EQ(b.job.attempts, 2);
  for (auto refused :
       {q->heartbeat(a.lease), q->complete(a.lease, R"({"by":"a"})"), q->fail(a.lease, "a"), q->release(a.lease)}) {
    ASSERT_TRUE(refused) << refused.error().message();
    EXPECT_FALSE(*refused);
  }
  auto done = q->complete(b.lease, R"({"by":"b"})");
  ASSERT_TRUE(done && *done);
  auto jobs = q->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->at(0).outcome, R"({"by":"b"})");
  EXPECT_EQ(jobs->at(0).lease_owner, "b");
}

TEST_P(JobQueueTest, HeartbeatsKeepTheJob) {
  auto q = open(QueueOptions{.lease_s = 0.6, .max_attempts = 3});
  auto other = open(QueueOptions{.lease_s = 0.6, .max_attempts = 3});
  enqueue(*q, 1);
  ClaimedJob a = claim(*q, "a");
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(200ms);
    auto beat = q->heartbeat(a.lease);
    ASSERT_TRUE(beat && *beat);
    EXPECT_TRUE(nothing_to_claim(*other));
  }
  auto done = q->complete(a.lease, "{}");
  ASSERT_TRUE(done && *done);
}

TEST_P(JobQueueTest, AReleasedJobIsClaimableAtOnceWithoutCountingTheAttempt) {
  auto q = open();
  auto ids = enqueue(*q, 1);
  ClaimedJob a = claim(*q, "a");
  auto released = q->release(a.lease);
  ASSERT_TRUE(released && *released);
  ClaimedJob b = claim(*q, "b");
  EXPECT_EQ(b.job.id, ids[0]);
  EXPECT_EQ(b.job.attempts, 1);
  EXPECT_EQ(b.lease.attempt, 2);  // a claim of its own, which a's lease is not
  auto stale = q->complete(a.lease, "{}");
  ASSERT_TRUE(stale);
  EXPECT_FALSE(*stale);
}

TEST_P(JobQueueTest, AJobThatOutlivesItsAttemptsFails) {
  auto q = open(QueueOptions{.lease_s = 0.2, .max_attempts = 2});
  auto ids = enqueue(*q, 1);
  claim(*q, "a");
  std::this_thread::sleep_for(300ms);
  claim(*q, "b");
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(nothing_to_claim(*q));
  auto jobs = q->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->at(0).state, JobState::kFailed);
  EXPECT_NE(jobs->at(0).error.find("lease expired 2 times"), std::string::npos) << jobs->at(0).error;
}

TEST_P(JobQueueTest, AFailureIsStoredWithItsReason) {
  auto q = open();
  auto ids = enqueue(*q, 1);
  ClaimedJob a = claim(*q, "a");
  auto failed = q->fail(a.lease, "eval payload: missing field 'id'");
  ASSERT_TRUE(failed && *failed);
  auto jobs = q->wait(ids, 5);
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->at(0).state, JobState::kFailed);
  EXPECT_EQ(jobs->at(0).error, "eval payload: missing field 'id'");
}

TEST_P(JobQueueTest, WaitEndsWhenEveryJobIsFinishedOrAtItsTimeout) {
  auto q = open();
  auto ids = enqueue(*q, 2);
  auto early = q->wait(ids, 0.3, 0.05);
  ASSERT_TRUE(early);
  EXPECT_FALSE(early->at(0).finished());
  std::thread worker([&] {
    auto mine = open();
    for (int i = 0; i < 2; ++i) {
      ClaimedJob c = claim(*mine, "w");
      ASSERT_TRUE(*mine->complete(c.lease, "{}"));
    }
  });
  auto all = q->wait(ids, 30, 0.05);
  worker.join();
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->at(0).finished() && all->at(1).finished());
  auto batch = q->batch("test");
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->size(), 2u);
}

TEST_P(JobQueueTest, ConcurrentClaimersNeverShareAJob) {
  constexpr int kJobs = 60, kClaimers = 4;
  auto q = open();
  auto ids = enqueue(*q, kJobs);
  std::mutex mutex;
  std::map<std::int64_t, int> claims;
  std::vector<std::thread> claimers;
  std::atomic<int> errors = 0;
  for (int w = 0; w < kClaimers; ++w)
    claimers.emplace_back([&, w] {
      auto mine = JobQueue::open(db_->url());
      if (!mine) return void(++errors);
      while (true) {
        auto c = (*mine)->claim("w" + std::to_string(w), {JobKind::kEval});
        if (!c) return void(++errors);
        if (!*c) return;
        {
          std::lock_guard lock(mutex);
          ++claims[(*c)->job.id];
        }
        auto done = (*mine)->complete((*c)->lease, "{}");
        if (!done || !*done) ++errors;
      }
    });
  for (auto& t : claimers) t.join();
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(claims.size(), static_cast<size_t>(kJobs));
  EXPECT_TRUE(std::all_of(claims.begin(), claims.end(), [](const auto& c) { return c.second == 1; }));
  auto jobs = q->jobs(ids);
  ASSERT_TRUE(jobs);
  EXPECT_TRUE(std::all_of(jobs->begin(), jobs->end(), [](const QueuedJob& j) { return j.state == JobState::kDone; }));
}

TEST_P(JobQueueTest, AnUnknownJobIsAnErrorNamingIt) {
  auto q = open();
  auto jobs = q->jobs({987654});
  ASSERT_FALSE(jobs);
  EXPECT_NE(jobs.error().message().find("no job 987654"), std::string::npos) << jobs.error().message();
}

INSTANTIATE_TEST_SUITE_P(Engines, JobQueueTest, ::testing::Values(store::Engine::kSqlite, store::Engine::kPostgres),
                         store::engine_name);

}  // namespace
}  // namespace kmem
