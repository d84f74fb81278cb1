// A shared/exclusive gate that prefers the exclusive side: once a thread
// asks to go alone, no new thread enters shared, and it goes as soon as the
// ones inside leave. (std::shared_mutex may let a steady stream of shared
// holders starve it.) Jobs hold it shared; a job run again alone after
// running out of GPU memory holds it exclusively.
#pragma once

#include <condition_variable>
#include <mutex>

namespace kmem::eval {

class ShareGate {
 public:
  void lock_shared() {
    std::unique_lock hold(mutex_);
    changed_.wait(hold, [this] { return !alone_ && waiting_alone_ == 0; });
    ++sharing_;
  }
  void unlock_shared() {
    std::lock_guard hold(mutex_);
    --sharing_;
    changed_.notify_all();
  }
  void lock() {
    std::unique_lock hold(mutex_);
    ++waiting_alone_;
    changed_.wait(hold, [this] { return !alone_ && sharing_ == 0; });
    --waiting_alone_;
    alone_ = true;
  }
  void unlock() {
    std::lock_guard hold(mutex_);
    alone_ = false;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int sharing_ = 0;
  int waiting_alone_ = 0;
  bool alone_ = false;
};

}  // namespace kmem::eval
