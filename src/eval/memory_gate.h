// Device memory as a budget: a candidate's run starts once the bytes its
// problem's reference says it needs (python/kmem_worker/footprint.py) fit
// beside what the references prepared hold and the runs already started
// need, so that jobs wait for room instead of running out of memory, being
// run again alone and stopping every other job meanwhile (evaluator.cpp).
// Runs start in the order they asked, except that one that fits may pass
// a waiting one that does not, a few times at most; a run that is alone
// starts whatever its size. Until the capacity is known every run starts.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>

namespace kmem::eval {

class MemoryGate {
 public:
  // How many runs may pass one that waits for room before it goes first.
  static constexpr int kMaxPassed = 4;

  // The bytes that references and runs may take together (once known).
  void set_capacity(int64_t bytes);
  // A reference's bytes, taken already (no wait), and given back.
  void hold(int64_t bytes);
  void drop(int64_t bytes);
  // Waits for room for a run of `bytes`, then counts it until leave().
  void enter(int64_t bytes);
  void leave(int64_t bytes);

  int64_t capacity() const;
  int64_t used() const;

 private:
  bool may_enter(uint64_t ticket, int64_t bytes) const;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int64_t capacity_ = -1;  // unknown
  int64_t held_ = 0, running_bytes_ = 0;
  int running_ = 0;
  uint64_t next_ticket_ = 0;
  std::map<uint64_t, int> waiting_;  // ticket -> runs that passed it
};

}  // namespace kmem::eval
