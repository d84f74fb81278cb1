// Building the native harness in a one-shot Python process (native_harness.h).
#include "native_harness.h"

#include "process.h"

namespace kmem::eval {

namespace {
constexpr auto kBuildLimit = std::chrono::minutes(10);
constexpr size_t kBuildLogTail = 4000;
}  // namespace

Status build_native_harness(const EvalOptions& options, const std::string& log_path) {
  SpawnSpec spec;
  spec.argv = {options.python, "-m", "kmem_worker", "harness"};
  spec.environment = {prepended_entry("PYTHONPATH", options.python_dir), "PYTHONDONTWRITEBYTECODE=1"};
  spec.log_path = log_path;
  auto process = ChildProcess::spawn(spec);
  if (!process) return process.error().wrap("the native harness");
  (*process)->close_input();
  ExitStatus status = (*process)->wait_then_kill(Clock::now() + kBuildLimit);
  if (status.signaled || status.code != 0)
    return Error("the native harness (python/kmem_worker/harness.cpp) could not be built (" + status.describe() +
                 "): " + read_tail(log_path, kBuildLogTail));
  return Status::success();
}

}  // namespace kmem::eval
