// A relay for creating CUDA contexts. A worker sets up the device (CUDA
// context, then cuBLAS, cuDNN, Triton) before its first job; the driver
// creates contexts one at a time, so dozens of workers doing it at once slow
// every one of them down, the ones needed first too. So at most `at_once`
// create theirs together, in the order they were started: each worker gets a
// baton, the write end of a pipe of its own, which it closes once it has its
// context (the kernel closes it if the worker dies), and the read end of the
// pipe of the worker started `at_once` places before it, which it reads to
// the end before it starts. No lock to leak, no file to clean up.
#pragma once

#include <deque>

#include "kmem/result.h"

namespace kmem::eval {

// One worker's descriptors (the parent's copies, closed with the baton once
// they have been handed over); -1 where there is none.
class ContextBaton {
 public:
  ContextBaton() = default;
  ContextBaton(int done, int after) : done_(done), after_(after) {}
  ContextBaton(ContextBaton&& other) noexcept;
  ContextBaton& operator=(ContextBaton&&) = delete;
  ~ContextBaton();

  int done() const { return done_; }    // the worker closes it once it has its context
  int after() const { return after_; }  // at end of file, the baton has reached it

 private:
  int done_ = -1;
  int after_ = -1;
};

class ContextRelay {
 public:
  // at_once <= 0: no limit (no descriptors either).
  explicit ContextRelay(int at_once) : at_once_(at_once) {}
  ContextRelay(const ContextRelay&) = delete;
  ContextRelay& operator=(const ContextRelay&) = delete;
  ~ContextRelay();

  // The baton of the next worker started. Not thread-safe.
  Result<ContextBaton> next();

 private:
  int at_once_;
  std::deque<int> waiting_;  // read ends of the last `at_once_` batons, oldest first
};

}  // namespace kmem::eval
