// Starting runs as the device's memory allows (memory_gate.h).
#include "memory_gate.h"

namespace kmem::eval {

void MemoryGate::set_capacity(int64_t bytes) {
  std::lock_guard hold(mutex_);
  capacity_ = bytes;
  changed_.notify_all();
}

void MemoryGate::hold(int64_t bytes) {
  std::lock_guard hold(mutex_);
  held_ += bytes;
}

void MemoryGate::drop(int64_t bytes) {
  std::lock_guard hold(mutex_);
  held_ -= bytes;
  changed_.notify_all();
}

bool MemoryGate::may_enter(uint64_t ticket, int64_t bytes) const {
  bool first = waiting_.begin()->first == ticket;
  if (capacity_ < 0 || (first && running_ == 0)) return true;
  if (held_ + running_bytes_ + bytes > capacity_) return false;
  return first || waiting_.begin()->second < kMaxPassed;
}

void MemoryGate::enter(int64_t bytes) {
  std::unique_lock hold(mutex_);
  const uint64_t ticket = next_ticket_++;
  waiting_.emplace(ticket, 0);
  changed_.wait(hold, [&] { return may_enter(ticket, bytes); });
  if (waiting_.begin()->first != ticket) waiting_.begin()->second++;
  waiting_.erase(ticket);
  running_++;
  running_bytes_ += bytes;
  changed_.notify_all();  // the next in line may fit now, or be first
}

void MemoryGate::leave(int64_t bytes) {
  std::lock_guard hold(mutex_);
  running_--;
  running_bytes_ -= bytes;
  changed_.notify_all();
}

int64_t MemoryGate::capacity() const {
  std::lock_guard hold(mutex_);
  return capacity_;
}

int64_t MemoryGate::used() const {
  std::lock_guard hold(mutex_);
  return held_ + running_bytes_;
}

}  // namespace kmem::eval
