// The loop of `kmem worker` (docs/scale-out.md): claims evaluation jobs from
// the queue of a kmem database, evaluates each with the library's
// evaluator while renewing its lease, and stores the outcome exactly once.
// A lost database (a server restart, a network cut) is opened again and the
// loop goes on; a lease lost meanwhile means another worker has the job, so
// this one's outcome is dropped.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "kmem/eval.h"
#include "kmem/queue.h"

namespace kmem {

struct WorkerOptions {
  std::string db;               // SQLite path or PostgreSQL URL
  std::string name;             // the lease owner: unique among workers (host:pid)
  EvalOptions eval;             // the worker's device, interpreter and caches
  QueueOptions queue;           // lease length, attempts
  double poll_s = 1.0;          // idle: seconds between claims
  double heartbeat_s = 0;       // seconds between heartbeats; 0: a third of the lease
  double reconnect_s = 1.0;     // seconds between attempts to reach a lost database
  bool exit_when_idle = false;  // return once no job is claimable (drain the queue)
  // Evaluates one job; evaluate() of kmem/eval.h unless a test gives a fake.
  std::function<EvalOutcome(const EvalJob&, const EvalOptions&)> evaluate;
  // One line per event (claimed, finished, lease lost, database lost).
  std::function<void(const std::string&)> log;
};

// What the worker holds now, for a signal handler that must give it back.
class CurrentLease {
 public:
  void set(std::optional<Lease> lease) {
    std::lock_guard lock(mutex_);
    lease_ = std::move(lease);
  }
  std::optional<Lease> get() const {
    std::lock_guard lock(mutex_);
    return lease_;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<Lease> lease_;
};

struct WorkerTally {
  int completed = 0;  // outcomes stored
  int dropped = 0;    // outcomes refused: the lease had been taken over
  int failed = 0;     // jobs failed (an unreadable payload)
};

// Runs until `stop` is set (checked between jobs and while waiting) or, with
// exit_when_idle, until the queue holds nothing claimable. `writes` is held
// around each completion so that a signal never cuts one short. Returns
// what it did; an error only when the database cannot be opened at start.
Result<WorkerTally> run_worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLease& current,
                               std::mutex& writes);

}  // namespace kmem
