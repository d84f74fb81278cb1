// A worker process (of a role, started through the WorkerLauncher) seen as
// a stream of JSON events, each checked against the worker protocol for its
// role (protocol.h) before anyone reads it. Serves the batch's timing lock,
// which it is made with, on the way: a `time_request` event waits for the
// lock (the wait does not count against the worker's deadline) and is
// answered with a grant; `timed` releases it.
#pragma once

#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kmem/eval.h"
#include "process.h"
#include "protocol.h"
#include "timing_lock.h"

namespace kmem::eval {

class Worker {
 public:
  // What the worker wrote next, or how it failed to write it.
  struct Answer {
    // kMalformed: a line that is no event; kInvalid: an event the protocol
    // does not allow (`error` names the record and the field).
    enum Kind { kEvent, kTimeout, kClosed, kMalformed, kInvalid } kind = kClosed;
    Json event;         // kEvent, kInvalid
    std::string line;   // kMalformed, kInvalid: the line as written
    std::string error;  // kInvalid
  };

  // A started worker of `role` ("reference", "candidate"), its stderr in
  // log_path, serving `timing_lock` (which outlives it).
  Worker(std::string role, std::unique_ptr<LineProcess> process, std::string log_path, TimingLock& timing_lock)
      : role_(std::move(role)),
        process_(std::move(process)),
        log_path_(std::move(log_path)),
        timing_lock_(timing_lock) {}
  ~Worker();

  // Puts the worker under the timing lock (paused while another measures)
  // from now until it is reaped.
  void enroll();
  // The process group that keeps running while this worker measures (its
  // reference worker, which stages each call's inputs).
  void measure_beside(pid_t companion) { companion_ = companion; }
  bool send(const Json& command);
  // Sends `command` without waiting for its answer, the event `answer`, which
  // settle() reads later (a reference worker's `dropped`).
  bool send_owing(const Json& command, std::string answer, double timeout_s);
  // Reads the answers owed since send_owing, in order, if any; returns the
  // first that is not the one owed (it did not come in time, or another
  // record came), and owes nothing after it.
  std::optional<Answer> settle();
  // The next event other than the timing lock's; extends `deadline` by any
  // wait for the lock. Never returns (nor throws) holding the lock.
  Answer next(Clock::time_point& deadline);
  LineProcess& process() { return *process_; }
  const std::string& role() const { return role_; }
  // Seconds this worker spent waiting for the timing lock so far.
  double timing_lock_wait_s() const { return lock_wait_s_; }
  // Seconds this worker held the timing lock so far, from each grant to its
  // release: the orchestrator's own clock over its timed phases.
  double timing_lock_held_s() const { return held_s_; }
  const std::string& log_path() const { return log_path_; }

 private:
  Answer next_event(Clock::time_point& deadline);  // next() but for throwing
  void release();

  std::string role_;
  std::unique_ptr<LineProcess> process_;
  std::string log_path_;
  bool holds_lock_ = false;
  pid_t companion_ = 0;
  struct Owed {
    std::string answer;
    Clock::time_point by;
  };
  std::deque<Owed> owed_;  // answers to commands sent by send_owing, oldest first
  double lock_wait_s_ = 0.0;
  double held_s_ = 0.0;
  Clock::time_point held_since_;
  TimingLock& timing_lock_;
  bool enrolled_ = false;
};

// Seconds as a clock duration.
Clock::duration seconds(double s);

}  // namespace kmem::eval
