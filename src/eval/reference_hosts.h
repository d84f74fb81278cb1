// The reference worker processes of a batch. A reference runs only the
// problem's own (trusted) code, so one process hosts several problems at
// once, each under a handle of its own: fewer processes, so fewer CUDA
// contexts, which the driver creates one at a time (docs/measurement.md). A
// new problem goes to the host holding the fewest, once `count` hosts run.
// A host answers one command at a time; one that fails to answer is killed,
// and the problems it held fail with it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kmem/eval.h"
#include "timing_lock.h"
#include "worker.h"
#include "worker_pool.h"

namespace kmem::eval {

// What a request to a reference worker came to, besides its answer.
struct RequestInfo {
  bool sent = false;    // the command was sent (not to a worker stopped before)
  double held_s = 0.0;  // seconds the worker held the timing lock meanwhile
};

class ReferenceHost {
 public:
  explicit ReferenceHost(std::unique_ptr<Worker> worker) : worker_(std::move(worker)) {}

  // Sends `command` about problem `handle` and waits up to timeout_s for the
  // event `answer_event`; otherwise the error says `what` failed, why, and
  // ends with the worker's log. `info`, if given, tells more (RequestInfo).
  // A record the protocol does not allow stops the worker: the error names
  // the record and the field.
  Result<Json> request(int handle, Json command, const char* answer_event, double timeout_s, const std::string& what,
                       RequestInfo* info = nullptr);
  // Drops problem `handle` without waiting: the next command reads the answer first.
  void drop(int handle, double timeout_s);
  // The worker's process group (the timing lock's name for it).
  pid_t group() const { return worker_->process().pid(); }

 private:
  friend class ReferenceHosts;
  // Kills the worker, whatever it is doing (the problems it holds are
  // lost): `why`, or else its exit status, says why in later errors.
  void stop(const std::string& why);
  // The error of a command that got `answer` instead of the event it
  // asked for; stops the worker unless the answer is an event (an error the
  // worker reported).
  Error failure(const std::string& what, const Worker::Answer& answer);

  std::mutex mutex_;  // one command at a time
  std::unique_ptr<Worker> worker_;
  std::string stopped_;              // why the worker was stopped; empty while it serves
  std::atomic<int> problems_{0};     // problems held
  std::atomic<bool> broken_{false};  // stopped: takes no more problems
};

class ReferenceHosts {
 public:
  // Up to `count` hosts, taken from `pool`'s reference workers.
  ReferenceHosts(int count, WorkerPool& pool, TimingLock& timing_lock)
      : count_(count), pool_(pool), timing_lock_(timing_lock) {}

  struct Place {
    std::shared_ptr<ReferenceHost> host;
    int handle = 0;
  };
  // Where to prepare one more problem: a new host while fewer than `count`
  // serve, else the one holding the fewest problems.
  Result<Place> place();

 private:
  const int count_;
  WorkerPool& pool_;
  TimingLock& timing_lock_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<ReferenceHost>> hosts_;
  int next_handle_ = 0;
};

}  // namespace kmem::eval
