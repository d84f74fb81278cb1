// A worker process (of a role, forked by that role's zygote) seen as a
// stream of JSON events. Serves the timing lock on the way: a `time_request` event waits for
// the lock (the wait does not count against the worker's deadline) and is
// answered with a grant; `timed` releases it.
#pragma once

#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kmem/eval.h"
#include "process.h"
#include "timing_lock.h"
#include "zygote.h"

namespace kmem::eval {

using Json = nlohmann::json;

class Worker {
 public:
  struct Reply {
    enum Kind { kEvent, kTimeout, kClosed, kMalformed } kind = kClosed;
    Json event;        // kEvent
    std::string line;  // kMalformed: the line that is no event
  };

  // Starts a worker of the zygote's role, with its stderr in log_path, on
  // `cpus` (empty: any), creating its CUDA context in `turn`.
  static Result<std::unique_ptr<Worker>> start(Zygote& zygote, const std::string& log_path,
                                               const std::vector<int>& cpus, const Turn& turn);
  ~Worker();

  // Puts the worker under the timing lock (paused while another measures)
  // from now until it is reaped.
  void enroll(TimingLock& timing_lock);
  bool send(const Json& command);
  // Sends `command` without waiting for its reply, the event `reply`, which
  // settle() reads later (a reference worker's `dropped`).
  bool send_owing(const Json& command, std::string reply, double timeout_s);
  // Reads the replies owed since send_owing, in order, if any; returns the
  // first that is not the one owed (it did not come in time, or another
  // record came), and owes nothing after it.
  std::optional<Reply> settle(TimingLock& timing_lock);
  // The next event other than the timing lock's; extends `deadline` by any
  // wait for the lock. Never returns (nor throws) holding the lock.
  Reply next(Clock::time_point& deadline, TimingLock& timing_lock);
  ChildProcess& process() { return *process_; }
  // Seconds this worker spent waiting for the timing lock so far.
  double timing_lock_wait_s() const { return lock_wait_s_; }
  // Seconds this worker held the timing lock so far, from each grant to its
  // release: the orchestrator's own clock over its timed phases.
  double timing_lock_held_s() const { return held_s_; }
  const std::string& log_path() const { return log_path_; }

 private:
  Worker(std::unique_ptr<ChildProcess> process, std::string log_path)
      : process_(std::move(process)), log_path_(std::move(log_path)) {}
  Reply next_event(Clock::time_point& deadline, TimingLock& timing_lock);  // next() but for throwing
  void release(TimingLock& timing_lock);

  std::unique_ptr<ChildProcess> process_;
  std::string log_path_;
  bool holds_lock_ = false;
  struct Owed {
    std::string reply;
    Clock::time_point by;
  };
  std::deque<Owed> owed_;  // replies to commands sent by send_owing, oldest first
  double lock_wait_s_ = 0.0;
  double held_s_ = 0.0;
  Clock::time_point held_since_;
  TimingLock* timing_lock_ = nullptr;  // the lock this worker is enrolled in
};

// Seconds as a clock duration.
Clock::duration seconds(double s);

}  // namespace kmem::eval
