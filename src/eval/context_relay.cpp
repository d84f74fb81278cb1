// Pipes that order the creation of the workers' CUDA contexts (see context_relay.h).
#include "context_relay.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kmem::eval {

ContextBaton::ContextBaton(ContextBaton&& other) noexcept : done_(other.done_), after_(other.after_) {
  other.done_ = other.after_ = -1;
}

ContextBaton::~ContextBaton() {
  if (done_ >= 0) close(done_);
  if (after_ >= 0) close(after_);
}

ContextRelay::~ContextRelay() {
  for (int fd : waiting_) close(fd);
}

Result<ContextBaton> ContextRelay::next() {
  if (at_once_ <= 0) return ContextBaton();
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0)
    return Error(std::string("cannot make a pipe for the order of CUDA context creations: ") + strerror(errno));
  int after = -1;
  if (static_cast<int>(waiting_.size()) >= at_once_) {
    after = waiting_.front();
    waiting_.pop_front();
  }
  waiting_.push_back(pipe_ends[0]);
  return ContextBaton(pipe_ends[1], after);
}

}  // namespace kmem::eval
