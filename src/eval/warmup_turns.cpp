// Pipes that order the creation of the workers' CUDA contexts (see warmup_turns.h).
#include "warmup_turns.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kmem::eval {

Turn::Turn(Turn&& other) noexcept : done_(other.done_), after_(other.after_) {
  other.done_ = other.after_ = -1;
}

Turn::~Turn() {
  if (done_ >= 0) close(done_);
  if (after_ >= 0) close(after_);
}

WarmupTurns::~WarmupTurns() {
  for (int fd : waiting_) close(fd);
}

Result<Turn> WarmupTurns::next() {
  if (at_once_ <= 0) return Turn();
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0)
    return Error(std::string("cannot make a pipe for the order of CUDA context creations: ") + strerror(errno));
  int after = -1;
  if (static_cast<int>(waiting_.size()) >= at_once_) {
    after = waiting_.front();
    waiting_.pop_front();
  }
  waiting_.push_back(pipe_ends[0]);
  return Turn(pipe_ends[1], after);
}

}  // namespace kmem::eval
