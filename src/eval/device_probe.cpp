// Whether the worker's interpreter sees a usable CUDA device: asked once,
// before a batch, so that a machine without one gets one line instead of a
// failure per job.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "kmem/eval.h"

extern char** environ;

namespace kmem {

Status cuda_available(const EvalOptions& options) {
  const char* probe =
      "import sys, torch\n"
      "sys.exit(0 if torch.cuda.is_available() and torch.cuda.device_count() > 0 else 3)\n";
  std::string python = options.python;
  char* argv[] = {python.data(), const_cast<char*>("-c"), const_cast<char*>(probe), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int error = posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return Error("--device cuda: cannot run " + python + ": " + std::strerror(error));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::success();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
    return Error("--device cuda: no usable CUDA device (torch.cuda.is_available() is false under " + python + ")");
  std::string ended = WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                          : "exited with code " + std::to_string(WEXITSTATUS(status));
  return Error("--device cuda: " + python + " cannot import torch to look for a CUDA device (`import torch` " + ended +
               ")");
}

}  // namespace kmem
