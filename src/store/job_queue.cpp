// The job queue (kmem/queue.h) in the `jobs` table of a kmem database, on
// either engine. A claim picks the oldest claimable row with the
// connection's claim lock (PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent
// claimers skip each other's rows instead of waiting; SQLite: its writers
// take turns anyway) and stamps it with the worker, a lease expiry and the
// next claim number. Every later change a worker makes is one UPDATE whose
// WHERE names that claim (owner and claim number) and state 'claimed', so a
// worker whose lease was taken over changes nothing: exactly one completion.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "kmem/queue.h"
#include "store/connect.h"
#include "store/sql.h"

namespace kmem {

const char* job_kind_name(JobKind kind) { return kind == JobKind::kEval ? "eval" : "episode"; }

const char* job_state_name(JobState state) {
  switch (state) {
    case JobState::kQueued: return "queued";
    case JobState::kClaimed: return "claimed";
    case JobState::kDone: return "done";
    default: return "failed";
  }
}

namespace {

constexpr const char* kColumns =
    "id, kind, batch, payload, state, lease_owner, lease_expires_at, heartbeat_at, claims, attempts, outcome, error, "
    "created_at, finished_at";

Result<QueuedJob> read_job(const store::sql::Statement& q, const std::string& db) {
  QueuedJob job;
  job.id = q.integer64(0);
  std::string kind = q.text(1), state = q.text(4);
  if (kind == "eval") job.kind = JobKind::kEval;
  else if (kind == "episode") job.kind = JobKind::kEpisode;
  else return Error(fmt::format("{}: jobs row {}: unknown kind '{}'", db, job.id, kind));
  if (state == "queued") job.state = JobState::kQueued;
  else if (state == "claimed") job.state = JobState::kClaimed;
  else if (state == "done") job.state = JobState::kDone;
  else if (state == "failed") job.state = JobState::kFailed;
  else return Error(fmt::format("{}: jobs row {}: unknown state '{}'", db, job.id, state));
  job.batch = q.text(2);
  job.payload = q.text(3);
  job.lease_owner = q.text(5);
  job.lease_expires_at = q.real(6);
  job.heartbeat_at = q.real(7);
  job.attempts = q.integer(9);
  job.outcome = q.text(10);
  job.error = q.text(11);
  job.created_at = q.real(12);
  job.finished_at = q.real(13);
  return job;
}

Status json_object(const std::string& text, const std::string& what) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return Error(what + " is not a JSON object");
  return Status::success();
}

class SqlJobQueue final : public JobQueue {
 public:
  SqlJobQueue(std::unique_ptr<store::sql::Connection> db, QueueOptions options)
      : db_(std::move(db)), options_(options), now_(db_->now_sql()) {}

  Result<std::vector<std::int64_t>> enqueue(JobKind kind, const std::vector<std::string>& payloads,
                                            const std::string& batch) override {
    for (size_t i = 0; i < payloads.size(); ++i)
      if (Status s = json_object(payloads[i], fmt::format("{}: payload {} of batch '{}'", db_->path(), i, batch)); !s)
        return s.error();
    std::vector<std::int64_t> ids;
    Status s = in_transaction([&]() -> Status {
      auto insert = db_->prepare(fmt::format(
          "INSERT INTO jobs(kind, batch, payload, state, created_at) VALUES (?, ?, ?, 'queued', {}) RETURNING id",
          now_));
      if (!insert) return insert.error();
      for (const std::string& payload : payloads) {
        insert->bind(1, std::string(job_kind_name(kind))).bind(2, batch).bind(3, payload);
        auto row = insert->step();
        if (!row) return row.error();
        ids.push_back(insert->integer64(0));
        insert->reset();
      }
      return Status::success();
    });
    if (!s) return s.error();
    return ids;
  }

  Result<std::optional<ClaimedJob>> claim(const std::string& worker, const std::vector<JobKind>& kinds) override {
    std::optional<ClaimedJob> claimed;
    Status s = in_transaction([&]() -> Status {
      for (JobKind kind : kinds) {
        auto found = claim_one(worker, kind);
        if (!found) return found.error();
        if (*found) {
          claimed = std::move(*found);
          return Status::success();
        }
      }
      return Status::success();
    });
    if (!s) return s.error();
    return claimed;
  }

  Result<bool> heartbeat(const Lease& lease) override {
    return under_lease(fmt::format("lease_expires_at = {} + ?, heartbeat_at = {}", now_, now_), lease,
                       [&](store::sql::Statement& q) { q.bind(1, options_.lease_s); });
  }

  Result<bool> complete(const Lease& lease, const std::string& outcome_json) override {
    if (Status s = json_object(outcome_json, fmt::format("{}: the outcome of job {}", db_->path(), lease.job_id)); !s)
      return s.error();
    return under_lease(fmt::format("state = 'done', outcome = ?, finished_at = {}, lease_expires_at = 0", now_), lease,
                       [&](store::sql::Statement& q) { q.bind(1, outcome_json); });
  }

  Result<bool> fail(const Lease& lease, const std::string& error) override {
    return under_lease(fmt::format("state = 'failed', error = ?, finished_at = {}, lease_expires_at = 0", now_), lease,
                       [&](store::sql::Statement& q) { q.bind(1, error); });
  }

  Result<bool> release(const Lease& lease) override {
    return under_lease("state = 'queued', attempts = attempts - 1, lease_expires_at = 0", lease,
                       [](store::sql::Statement&) {});
  }

  Result<std::vector<QueuedJob>> jobs(const std::vector<std::int64_t>& ids) override {
    auto query = db_->prepare(fmt::format("SELECT {} FROM jobs WHERE id = ?", kColumns));
    if (!query) return query.error();
    std::vector<QueuedJob> out;
    for (std::int64_t id : ids) {
      query->bind(1, static_cast<long long>(id));
      auto row = query->step();
      if (!row) return row.error();
      if (!*row) return Error(fmt::format("{}: no job {}", db_->path(), id));
      auto job = read_job(*query, db_->path());
      if (!job) return job.error();
      out.push_back(std::move(*job));
      query->reset();
    }
    return out;
  }

  Result<std::vector<QueuedJob>> batch(const std::string& batch) override {
    auto query = db_->prepare(fmt::format("SELECT {} FROM jobs WHERE batch = ? ORDER BY id", kColumns));
    if (!query) return query.error();
    query->bind(1, batch);
    std::vector<QueuedJob> out;
    Status s = query->each_row([&](store::sql::Statement& q) -> Status {
      auto job = read_job(q, db_->path());
      if (!job) return job.error();
      out.push_back(std::move(*job));
      return Status::success();
    });
    if (!s) return s.error();
    return out;
  }

 private:
  template <typename Body>
  Status in_transaction(Body body) {
    if (Status s = db_->begin_claiming(); !s) return s;
    Status s = body();
    if (!s) {
      (void)db_->exec("ROLLBACK");
      return s;
    }
    return db_->exec("COMMIT");
  }

  // Claims the oldest claimable job of `kind` inside the caller's
  // transaction. A job whose lease expired options_.max_attempts times is
  // failed on the way (it kills its workers) and the next one is tried.
  Result<std::optional<ClaimedJob>> claim_one(const std::string& worker, JobKind kind) {
    auto pick = db_->prepare(fmt::format(
        "SELECT id, state, attempts FROM jobs WHERE kind = ? AND (state = 'queued' OR (state = 'claimed' AND "
        "lease_expires_at < {})) ORDER BY id LIMIT 1{}",
        now_, db_->claim_lock_sql()));
    if (!pick) return pick.error();
    while (true) {
      pick->bind(1, std::string(job_kind_name(kind)));
      auto row = pick->step();
      if (!row) return row.error();
      if (!*row) return std::optional<ClaimedJob>();
      long long id = pick->integer64(0);
      bool expired = pick->text(1) == "claimed";
      int attempts = pick->integer(2);
      pick->reset();
      if (expired && attempts >= options_.max_attempts) {
        auto failed = db_->prepare(fmt::format(
            "UPDATE jobs SET state = 'failed', error = ?, finished_at = {}, lease_expires_at = 0 WHERE id = ?", now_));
        if (!failed) return failed.error();
        std::string why = fmt::format("its lease expired {} times (its workers died or lost the database)", attempts);
        if (Status s = failed->bind(1, why).bind(2, id).run(); !s) return s.error();
        continue;
      }
      auto take = db_->prepare(fmt::format(
          "UPDATE jobs SET state = 'claimed', lease_owner = ?, lease_expires_at = {} + ?, heartbeat_at = {}, "
          "claims = claims + 1, attempts = attempts + 1 WHERE id = ? RETURNING {}",
          now_, now_, kColumns));
      if (!take) return take.error();
      take->bind(1, worker).bind(2, options_.lease_s).bind(3, id);
      auto taken = take->step();
      if (!taken) return taken.error();
      if (!*taken) return Error(fmt::format("{}: job {} vanished while being claimed", db_->path(), id));
      auto job = read_job(*take, db_->path());
      if (!job) return job.error();
      int claims = take->integer(8);
      return std::optional<ClaimedJob>(ClaimedJob{std::move(*job), Lease{id, worker, claims}});
    }
  }

  // Runs `UPDATE jobs SET <set>` on the lease's job only while the lease is
  // its current claim: true when it was, false (nothing changed) when not.
  // `bind` binds the parameters of `set`, which come first.
  template <typename Bind>
  Result<bool> under_lease(const std::string& set, const Lease& lease, Bind bind) {
    auto update = db_->prepare(fmt::format(
        "UPDATE jobs SET {} WHERE id = ? AND state = 'claimed' AND lease_owner = ? AND claims = ? RETURNING id", set));
    if (!update) return update.error();
    bind(*update);
    int first = static_cast<int>(std::count(set.begin(), set.end(), '?')) + 1;
    update->bind(first, static_cast<long long>(lease.job_id))
        .bind(first + 1, lease.owner)
        .bind(first + 2, lease.attempt);
    auto row = update->step();
    if (!row) return row.error();
    return *row;
  }

  std::unique_ptr<store::sql::Connection> db_;
  QueueOptions options_;
  std::string now_;
};

}  // namespace

Result<std::unique_ptr<JobQueue>> JobQueue::open(const std::string& db, QueueOptions options) {
  auto connection = store::open_writable(db);
  if (!connection) return connection.error();
  return std::unique_ptr<JobQueue>(std::make_unique<SqlJobQueue>(std::move(*connection), options));
}

Result<std::vector<QueuedJob>> JobQueue::wait(const std::vector<std::int64_t>& ids, double timeout_s, double poll_s) {
  auto start = std::chrono::steady_clock::now();
  while (true) {
    auto current = jobs(ids);
    if (!current) return current.error();
    bool all = std::all_of(current->begin(), current->end(), [](const QueuedJob& j) { return j.finished(); });
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (all || (timeout_s >= 0 && waited >= timeout_s)) return current;
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
}

}  // namespace kmem
