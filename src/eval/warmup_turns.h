// Turns at creating a CUDA context. A worker sets up the device (CUDA
// context, then cuBLAS, cuDNN, Triton) before its first job; the driver
// creates contexts one at a time, so dozens of workers doing it at once slow
// every one of them down, the ones needed first too. So at most `at_once`
// create theirs together, in the order they were started: each worker gets
// the write end of a pipe of its own, which it closes once it has its context
// (the kernel closes it if the worker dies), and the read end of the pipe of
// the worker started `at_once` places before it, which it reads to the end
// before it starts. No lock to leak, no file to clean up.
#pragma once

#include <deque>

#include "kmem/result.h"

namespace kmem::eval {

// One worker's descriptors (the parent's copies, closed with the Turn once
// they have been handed over); -1 where there is none.
class Turn {
 public:
  Turn() = default;
  Turn(int done, int after) : done_(done), after_(after) {}
  Turn(Turn&& other) noexcept;
  Turn& operator=(Turn&&) = delete;
  ~Turn();

  int done() const { return done_; }    // the worker closes it once it has its context
  int after() const { return after_; }  // at end of file, its turn has come

 private:
  int done_ = -1;
  int after_ = -1;
};

class WarmupTurns {
 public:
  // at_once <= 0: no limit (no descriptors either).
  explicit WarmupTurns(int at_once) : at_once_(at_once) {}
  WarmupTurns(const WarmupTurns&) = delete;
  WarmupTurns& operator=(const WarmupTurns&) = delete;
  ~WarmupTurns();

  // The turn of the next worker started. Not thread-safe.
  Result<Turn> next();

 private:
  int at_once_;
  std::deque<int> waiting_;  // read ends of the last `at_once_` turns, oldest first
};

}  // namespace kmem::eval
