// Starting worker processes (forked by a zygote) and reading their events.
#include "worker.h"

namespace kmem::eval {

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

Worker::~Worker() {
  process_->kill_and_reap();
  if (timing_lock_ != nullptr) timing_lock_->withdraw(process_->pid());
}

bool Worker::send(const Json& command) { return process_->write_line(command.dump()); }

bool Worker::send_owing(const Json& command, std::string reply, double timeout_s) {
  owed_.push_back({std::move(reply), Clock::now() + seconds(timeout_s)});
  return send(command);
}

std::optional<Worker::Reply> Worker::settle(TimingLock& timing_lock) {
  while (!owed_.empty()) {
    Owed owed = std::move(owed_.front());
    owed_.pop_front();
    auto reply = next(owed.by, timing_lock);
    if (reply.kind != Reply::kEvent || reply.event["event"] != owed.reply) {
      owed_.clear();
      return reply;
    }
  }
  return std::nullopt;
}

void Worker::release(TimingLock& timing_lock) {
  if (holds_lock_) {
    held_s_ += std::chrono::duration<double>(Clock::now() - held_since_).count();
    timing_lock.unlock();
  }
  holds_lock_ = false;
}

void Worker::enroll(TimingLock& timing_lock) {
  if (timing_lock_ != nullptr) return;
  timing_lock_ = &timing_lock;
  timing_lock.enroll(process_->pid());
}

Worker::Reply Worker::next(Clock::time_point& deadline, TimingLock& timing_lock) {
  try {
    return next_event(deadline, timing_lock);
  } catch (...) {
    release(timing_lock);  // a lock left held would keep every later caller waiting
    throw;
  }
}

Worker::Reply Worker::next_event(Clock::time_point& deadline, TimingLock& timing_lock) {
  for (;;) {
    std::string line;
    auto read = process_->read_line(deadline, line);
    if (read != LineProcess::Read::kLine) {
      release(timing_lock);
      return {read == LineProcess::Read::kTimeout ? Reply::kTimeout : Reply::kClosed, {}, {}, {}};
    }
    Json event = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!event.is_object() || !event.contains("event") || !event["event"].is_string()) {
      release(timing_lock);
      return {Reply::kMalformed, {}, line, {}};
    }
    if (auto allowed = Protocol::compiled().check_event(role_, event); !allowed) {
      release(timing_lock);
      return {Reply::kInvalid, std::move(event), line, allowed.error().message()};
    }
    const std::string name = event["event"];
    if (name == "time_request" && !holds_lock_) {
      auto asked = Clock::now();
      timing_lock.lock(process_->pid());
      holds_lock_ = true;
      auto waited = Clock::now() - asked;
      deadline += waited;
      lock_wait_s_ += std::chrono::duration<double>(waited).count();
      held_since_ = Clock::now();
      Json grant{{"cmd", "time"}, {"cpu", timing_lock.timing_cpu()}};
      if (double fastest = timing_lock.fastest_host_probe_ms(); fastest > 0) grant["host_probe_ms"] = fastest;
      send(grant);
    } else if (name == "timed" && holds_lock_) {
      release(timing_lock);
    } else {
      release(timing_lock);
      return {Reply::kEvent, std::move(event), {}, {}};
    }
  }
}

}  // namespace kmem::eval
