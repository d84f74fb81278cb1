// Placing problems on reference workers and talking to them one command at a time.
#include "reference_hosts.h"

#include <algorithm>

#include "process.h"
#include "protocol.h"

namespace kmem::eval {

void ReferenceHost::stop(const std::string& why) {
  auto status = worker_->process().kill_and_reap();
  stopped_ = why.empty() ? status.describe() : why;
  broken_ = true;
}

Error ReferenceHost::failure(const std::string& what, const Worker::Answer& answer) {
  std::string text = what + ": ";
  Error::Kind kind = Error::Kind::kFailure;
  if (answer.kind == Worker::Answer::kEvent && answer.event["event"] == "error") {
    Fields error("reference", "error", answer.event);
    text += error.text("message") + "\n" + error.text("traceback");
    if (error_kind(error.text("kind")) == ErrorKind::kOutOfMemory) kind = Error::Kind::kOutOfMemory;
  } else if (answer.kind == Worker::Answer::kEvent) {
    text += "answered " + answer.event.dump();
  } else {
    stop(answer.kind == Worker::Answer::kTimeout     ? "timed out"
         : answer.kind == Worker::Answer::kMalformed ? "wrote '" + answer.line + "'"
         : answer.kind == Worker::Answer::kInvalid
             ? "wrote a record the worker protocol does not allow: " + answer.error
             : "");
    text += stopped_;
  }
  std::string log = read_tail(worker_->log_path(), kLogTail);
  if (!log.empty()) text += "\n" + log;
  return Error(text, kind);
}

Result<Json> ReferenceHost::request(int handle, Json command, const char* answer_event, double timeout_s,
                                    const std::string& what, RequestInfo* info) {
  std::lock_guard hold(mutex_);
  if (info != nullptr) *info = RequestInfo{};
  if (!stopped_.empty()) return Error(what + ": its reference worker was stopped earlier (" + stopped_ + ")");
  if (auto wrong = worker_->settle()) {
    if (wrong->kind == Worker::Answer::kEvent) stop("answered " + wrong->event.dump() + " to dropping a problem");
    return failure(what + ": its reference worker failed to drop an earlier problem", *wrong);
  }
  command["ref"] = handle;
  if (!worker_->send(command)) return failure(what + ": the command did not reach its reference worker", {});
  if (info != nullptr) info->sent = true;
  auto deadline = Clock::now() + seconds(timeout_s);
  const double held_before = worker_->timing_lock_held_s();
  auto answer = worker_->next(deadline);
  if (info != nullptr) info->held_s = worker_->timing_lock_held_s() - held_before;
  if (answer.kind != Worker::Answer::kEvent || answer.event["event"] != answer_event) return failure(what, answer);
  return std::move(answer.event);
}

void ReferenceHost::drop(int handle, double timeout_s) {
  std::lock_guard hold(mutex_);
  problems_--;
  if (stopped_.empty()) worker_->send_owing(Json{{"cmd", "drop"}, {"ref", handle}}, "dropped", timeout_s);
}

Result<ReferenceHosts::Place> ReferenceHosts::place() {
  std::lock_guard hold(mutex_);
  std::erase_if(hosts_, [](const auto& host) { return host->broken_.load(); });
  std::shared_ptr<ReferenceHost> host;
  if (static_cast<int>(hosts_.size()) < count_) {
    auto worker = pool_.take("reference");
    if (!worker) return worker.error();
    (*worker)->enroll();
    host = hosts_.emplace_back(std::make_shared<ReferenceHost>(std::move(*worker)));
  } else {
    host = *std::min_element(hosts_.begin(), hosts_.end(),
                             [](const auto& a, const auto& b) { return a->problems_ < b->problems_; });
  }
  host->problems_++;
  return Place{host, next_handle_++};
}

}  // namespace kmem::eval
