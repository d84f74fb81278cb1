// Starting worker processes (forked by a zygote) and reading their events.
#include "worker.h"

namespace kmem::eval {

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

Worker::~Worker() {
  process_->kill_and_reap();
  if (enrolled_) timing_lock_.withdraw(process_->pid());
}

bool Worker::send(const Json& command) { return process_->write_line(command.dump()); }

bool Worker::send_owing(const Json& command, std::string answer, double timeout_s) {
  owed_.push_back({std::move(answer), Clock::now() + seconds(timeout_s)});
  return send(command);
}

std::optional<Worker::Answer> Worker::settle() {
  while (!owed_.empty()) {
    Owed owed = std::move(owed_.front());
    owed_.pop_front();
    auto answer = next(owed.by);
    if (answer.kind != Answer::kEvent || answer.event["event"] != owed.answer) {
      owed_.clear();
      return answer;
    }
  }
  return std::nullopt;
}

void Worker::release() {
  if (holds_lock_) {
    held_s_ += std::chrono::duration<double>(Clock::now() - held_since_).count();
    timing_lock_.unlock();
  }
  holds_lock_ = false;
}

void Worker::enroll() {
  if (enrolled_) return;
  enrolled_ = true;
  timing_lock_.enroll(process_->pid());
}

Worker::Answer Worker::next(Clock::time_point& deadline) {
  try {
    return next_event(deadline);
  } catch (...) {
    release();  // a lock left held would keep every later caller waiting
    throw;
  }
}

Worker::Answer Worker::next_event(Clock::time_point& deadline) {
  for (;;) {
    std::string line;
    auto read = process_->read_line(deadline, line);
    if (read != LineProcess::Read::kLine) {
      release();
      return {read == LineProcess::Read::kTimeout ? Answer::kTimeout : Answer::kClosed, {}, {}, {}};
    }
    Json event = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!event.is_object() || !event.contains("event") || !event["event"].is_string()) {
      release();
      return {Answer::kMalformed, {}, line, {}};
    }
    if (auto allowed = Protocol::compiled().check_event(role_, event); !allowed) {
      release();
      return {Answer::kInvalid, std::move(event), line, allowed.error().message()};
    }
    const std::string name = event["event"];
    if (name == "time_request" && !holds_lock_) {
      auto asked = Clock::now();
      timing_lock_.lock(process_->pid(), companion_);
      holds_lock_ = true;
      auto waited = Clock::now() - asked;
      deadline += waited;
      lock_wait_s_ += std::chrono::duration<double>(waited).count();
      held_since_ = Clock::now();
      Json grant{{"cmd", "time"}, {"cpu", timing_lock_.timing_cpu()}};
      if (double fastest = timing_lock_.fastest_host_probe_ms(); fastest > 0) grant["host_probe_ms"] = fastest;
      send(grant);
    } else if (name == "timed" && holds_lock_) {
      release();
    } else {
      release();
      return {Answer::kEvent, std::move(event), {}, {}};
    }
  }
}

}  // namespace kmem::eval
