// Whether the worker's interpreter sees a usable CUDA device: asked once,
// before a batch, so that a machine without one gets one line instead of a
// failure per job. The worker's `device` command answers from torch's
// version file and the driver, without importing torch
// (python/kmem_worker/torch_install.py): seconds a batch no longer waits.

#include "kmem/eval.h"
#include "process.h"

namespace kmem {

namespace {
// The command's exit statuses (torch_install.py).
constexpr int kNoDevice = 3;
constexpr int kNoTorch = 4;
constexpr auto kProbeLimit = std::chrono::seconds(60);
}  // namespace

Status cuda_available(const EvalOptions& options) {
  eval::SpawnSpec spec;
  spec.argv = {options.python, "-m", "kmem_worker", "device"};
  spec.environment = {eval::prepended_entry("PYTHONPATH", options.python_dir), "PYTHONDONTWRITEBYTECODE=1"};
  spec.log_path = "/dev/null";
  auto process = eval::ChildProcess::spawn(spec);
  if (!process) return Error("--device cuda: cannot run " + options.python + ": " + process.error().message());
  (*process)->close_input();
  eval::ExitStatus status = (*process)->wait_then_kill(eval::Clock::now() + kProbeLimit);
  if (!status.signaled && status.code == 0) return Status::success();
  if (!status.signaled && status.code == kNoDevice)
    return Error("--device cuda: no usable CUDA device (torch.cuda.is_available() is false under " + options.python +
                 ")");
  if (!status.signaled && status.code == kNoTorch)
    return Error("--device cuda: " + options.python + " has no torch to look for a CUDA device with");
  return Error("--device cuda: " + options.python + " cannot look for a CUDA device (`python3 -m kmem_worker device` " +
               status.describe() + ")");
}

}  // namespace kmem
