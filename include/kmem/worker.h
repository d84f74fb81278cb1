// The loop of `kmem worker` (docs/scale-out.md): claims evaluation jobs from
// the queue of a kmem database, up to a batch at a time, evaluates them
// together with the library's evaluator (`eval.parallel` candidates in
// flight), claiming more as candidates finish, while renewing their leases,
// and stores each outcome exactly once, as soon as it is known.
// A lost database (a server restart, a network cut) is opened again and the
// loop goes on; a lease lost meanwhile means another worker has the job, so
// this one's outcome is dropped.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "kmem/eval.h"
#include "kmem/queue.h"

namespace kmem {

// Evaluates `jobs`, then those `more` gives while they run, with `options`,
// calling `on_result` once per job as it finishes (from one thread at a
// time): evaluate_stream of kmem/eval.h.
using BatchEvaluator =
    std::function<void(const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions& options,
                       const std::function<void(const EvalOutcome&)>& on_result)>;

struct WorkerOptions {
  std::string db;      // SQLite path or PostgreSQL URL
  std::string name;    // the lease owner: unique among workers (host:pid)
  EvalOptions eval;    // the worker's device, interpreter, caches and candidates in flight (parallel)
  QueueOptions queue;  // lease length, attempts
  // Jobs claimed at once to start a batch (jobs whose verdict options
  // differ run as batches of their own, one after another); the batch then
  // claims one more job whenever it has room, until the queue has none; 0:
  // four times eval.parallel.
  int batch = 0;
  // Once a job is claimed, how long to go on claiming while the queue is
  // empty, so that a batch being submitted is evaluated whole.
  double gather_s = 0.5;
  // While a batch runs and the queue is empty, how long its evaluation
  // waits for another job (claiming every poll_s) before it ends: its
  // zygotes, reference workers and references stay up meanwhile, so a job
  // that comes then starts at once rather than after seconds of imports.
  double keep_warm_s = 0;
  double poll_s = 1.0;          // idle: seconds between claims
  double heartbeat_s = 0;       // seconds between heartbeats; 0: a third of the lease
  double reconnect_s = 1.0;     // seconds between attempts to reach a lost database
  bool exit_when_idle = false;  // return once no job is claimable (drain the queue)
  // With exit_when_idle: how long a worker that has claimed nothing yet waits
  // for a first job, so that one started beside its submitter does not find
  // the queue empty and leave before the jobs arrive.
  double first_job_wait_s = 0;
  BatchEvaluator evaluate;  // evaluate_batch unless a test gives a fake
  // One line per event (claimed, finished, lease lost, database lost).
  std::function<void(const std::string&)> log;
};

// The claims the worker holds now, for a signal handler that must give them
// back: close() ends the claiming, after a claim in flight is listed, so no
// job is claimed again between the handler's release and the exit.
class CurrentLeases {
 public:
  // Held around a claim and the add() of its lease; while held, closed()
  // says whether to claim at all.
  std::unique_lock<std::mutex> claiming() { return std::unique_lock(claim_mutex_); }
  bool closed() const { return closed_; }  // under claiming()
  // No claim from now on; every lease held.
  std::vector<Lease> close() {
    std::lock_guard claims(claim_mutex_);
    closed_ = true;
    return all();
  }

  void add(const Lease& lease) {
    std::lock_guard lock(mutex_);
    leases_.push_back(lease);
  }
  void remove(std::int64_t job_id) {
    std::lock_guard lock(mutex_);
    std::erase_if(leases_, [&](const Lease& l) { return l.job_id == job_id; });
  }
  std::vector<Lease> all() const {
    std::lock_guard lock(mutex_);
    return leases_;
  }

 private:
  std::mutex claim_mutex_;
  bool closed_ = false;  // under claim_mutex_
  mutable std::mutex mutex_;
  std::vector<Lease> leases_;
};

struct WorkerTally {
  int completed = 0;  // outcomes stored
  int dropped = 0;    // outcomes refused: the lease had been taken over
  int failed = 0;     // jobs failed (an unreadable payload)
};

// Runs until `stop` is set (checked between batches and while waiting) or,
// with exit_when_idle, until the queue holds nothing claimable; a claim still
// waiting for a batch of its options is then given back. `writes` is
// held around each completion so that a signal never cuts one short.
// Returns what it did; an error only when the database cannot be opened at
// start.
Result<WorkerTally> run_worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLeases& current,
                               std::mutex& writes);

}  // namespace kmem
