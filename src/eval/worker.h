// A worker process (`python3 -m kmem_worker ROLE`) seen as a stream of JSON
// events. Serves the timing lock on the way: a `time_request` event waits for
// the lock (the wait does not count against the worker's deadline) and is
// answered with a grant; `timed` releases it.
#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "kmem/eval.h"
#include "process.h"

namespace kmem::eval {

using Json = nlohmann::json;

class Worker {
 public:
  struct Reply {
    enum Kind { kEvent, kTimeout, kClosed, kMalformed } kind = kClosed;
    Json event;        // kEvent
    std::string line;  // kMalformed: the line that is no event
  };

  // Starts `role` ("reference" or "candidate") with its stderr in log_path.
  static Result<std::unique_ptr<Worker>> start(const std::string& role, const EvalOptions& options,
                                               const std::string& log_path);
  ~Worker();

  bool send(const Json& command);
  // The next event other than the timing lock's; extends `deadline` by any
  // wait for the lock. Never returns holding the lock.
  Reply next(Clock::time_point& deadline, std::mutex& timing_lock);
  ChildProcess& process() { return *process_; }
  const std::string& log_path() const { return log_path_; }

 private:
  Worker(std::unique_ptr<ChildProcess> process, std::string log_path)
      : process_(std::move(process)), log_path_(std::move(log_path)) {}
  void release(std::mutex& timing_lock);

  std::unique_ptr<ChildProcess> process_;
  std::string log_path_;
  bool holds_lock_ = false;
};

// Seconds as a clock duration.
Clock::duration seconds(double s);

}  // namespace kmem::eval
