// The job queue: evaluation jobs (and episodes) enqueued in a kmem database
// and drained by `kmem worker` processes on any number of machines
// (docs/scale-out.md). The database is the one `--db` names: an SQLite file
// for one machine, or a PostgreSQL URL (postgresql://... or postgres://...)
// that workers elsewhere reach too. A worker claims a job under a lease that
// it renews with heartbeats; a lease that expires (the worker died, its
// machine vanished) makes the job claimable again; a job is completed exactly
// once: a completion under a lease that was taken over is refused. Times are
// the database's clock, so the machines' clocks need not agree.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kmem/episode.h"
#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem {

enum class JobKind { kEval, kEpisode };
enum class JobState { kQueued, kClaimed, kDone, kFailed };

// "eval", "episode"; "queued", "claimed", "done", "failed" (the database's spelling).
const char* job_kind_name(JobKind kind);
const char* job_state_name(JobState state);

// One row of the queue.
struct QueuedJob {
  std::int64_t id = 0;
  JobKind kind = JobKind::kEval;
  std::string batch;    // the name given at enqueue: jobs enqueued together
  std::string payload;  // JSON: eval_payload_json for kEval
  JobState state = JobState::kQueued;
  std::string lease_owner;        // the worker holding or last holding it; empty when never claimed
  double lease_expires_at = 0.0;  // seconds since the epoch (database clock); 0 when unclaimed
  double heartbeat_at = 0.0;      // the holder's last heartbeat (or the claim)
  int attempts = 0;               // claims so far, less those released
  std::string outcome;            // JSON, when done: outcome_json for kEval
  std::string error;              // when failed: one line saying why
  double created_at = 0.0, finished_at = 0.0;

  bool finished() const { return state == JobState::kDone || state == JobState::kFailed; }
};

// A claim held by one worker. `attempt` numbers the job's claims (the first
// claim is 1, each later one counts one more): heartbeat, complete, fail and
// release succeed only while the job is still claimed by `owner` under it.
struct Lease {
  std::int64_t job_id = 0;
  std::string owner;
  int attempt = 0;
};

struct ClaimedJob {
  QueuedJob job;
  Lease lease;
};

struct QueueOptions {
  double lease_s = 60;   // a claim (and each heartbeat) holds the job this long
  int max_attempts = 3;  // a job whose lease expired this many times fails (a job that kills its workers)
};

class JobQueue {
 public:
  // Opens the queue of the kmem database `db`: a PostgreSQL URL
  // (postgresql://, postgres://) or an SQLite file path (created and
  // migrated as Database::open does). Errors name `db` (without a password).
  static Result<std::unique_ptr<JobQueue>> open(const std::string& db, QueueOptions options = {});
  virtual ~JobQueue() = default;

  // Adds jobs of one kind (in one transaction), state queued; returns their
  // ids in the order of `payloads`. Each payload must be a JSON object.
  virtual Result<std::vector<std::int64_t>> enqueue(JobKind kind, const std::vector<std::string>& payloads,
                                                    const std::string& batch) = 0;

  // Claims the oldest claimable job of the first kind in `kinds` that has one
  // (queued, or claimed under an expired lease), for `worker`, under a lease of
  // options.lease_s; nullopt when there is none. Concurrent claimers never get
  // the same job (PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED).
  virtual Result<std::optional<ClaimedJob>> claim(const std::string& worker, const std::vector<JobKind>& kinds) = 0;

  // Renews the lease for options.lease_s from now: false when it is lost
  // (expired and claimed by another worker, or the job finished).
  virtual Result<bool> heartbeat(const Lease& lease) = 0;

  // Stores the outcome (state done) or, when `failed`, the error line (state
  // failed) once: false, and nothing changed, when the lease is no longer the
  // job's current claim.
  virtual Result<bool> complete(const Lease& lease, const std::string& outcome_json) = 0;
  virtual Result<bool> fail(const Lease& lease, const std::string& error) = 0;

  // Gives the job back unfinished (a worker stopping): queued again at once,
  // this attempt not counted. false when the lease was already lost.
  virtual Result<bool> release(const Lease& lease) = 0;

  // The jobs with these ids, in the same order; an unknown id is an error naming it.
  virtual Result<std::vector<QueuedJob>> jobs(const std::vector<std::int64_t>& ids) = 0;
  // Every job of a batch, by id.
  virtual Result<std::vector<QueuedJob>> batch(const std::string& batch) = 0;

  // Polls until every job of `ids` is finished or `timeout_s` passes (< 0:
  // no limit); returns the jobs as they are then (check finished()).
  Result<std::vector<QueuedJob>> wait(const std::vector<std::int64_t>& ids, double timeout_s, double poll_s = 0.5);
};

// An evaluation request as texts, for a worker on another machine: the
// problem's and the candidate's sources travel in the payload; the names are
// the paths the submitter knows them by (the outcome's job.problem and
// job.candidate).
struct EvalRequest {
  std::string id;
  std::string problem_name, problem_source;
  std::string candidate_name, candidate_source;
};

// Reads the files of `job` into a request (errors name the file).
Result<EvalRequest> read_eval_request(const EvalJob& job);

// The kEval payload: the request and the options that decide a verdict
// (tolerance, trials, warmup, iters, timeouts, memory limit). The device,
// interpreter, caches, sandbox and static rules are the worker's own: a
// submitter cannot weaken a worker's defences (an outcome of a worker
// without the sandbox carries the flag `unsandboxed`).
std::string eval_payload_json(const EvalRequest& request, const EvalOptions& options);

// The options of `options` that a payload carries, as one text: jobs whose
// texts are equal may be evaluated in one batch.
std::string verdict_options_key(const EvalOptions& options);

// Parses a kEval payload back: the request, and `base` (the worker's options)
// with the payload's options applied. Errors name the field.
struct EvalPayload {
  EvalRequest request;
  EvalOptions options;
};
Result<EvalPayload> parse_eval_payload(const std::string& payload_json, const EvalOptions& base);

// Reads an outcome back from outcome_json's text (a kEval job's stored
// outcome); `where` prefixes every error.
Result<EvalOutcome> parse_outcome_json(const std::string& json, const std::string& where);

// The outcome a finished kEval job gives its submitter, named as `job` (the
// submitter's paths): the stored outcome, or an evaluator_error saying why
// there is none (the queue failed the job, the outcome is unreadable). `db`
// names the database in errors.
EvalOutcome queued_outcome(const QueuedJob& queued, const EvalJob& job, const std::string& db);

// A CandidateEvaluator whose evaluations go to the job queue of the kmem
// database `db` (an SQLite file or a PostgreSQL URL) and come back from
// `kmem worker` processes, on this machine or any other: each evaluate()
// enqueues one kEval job (in batch `batch`) carrying the sources and
// `options`' verdict settings, and polls until a worker has stored its
// outcome, reaching the database again when it is lost. Thread-safe: each
// call opens a connection of its own. Nothing is evaluated until a worker runs.
std::unique_ptr<CandidateEvaluator> make_queue_evaluator(const std::string& db, const EvalOptions& options,
                                                         const std::string& batch);

}  // namespace kmem
