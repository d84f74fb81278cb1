// The seam between the scheduler and the operating system: how workers of a
// role are started and paused. The real launcher asks each role's zygote to
// fork them (zygote.h) and pauses them with signals; the tests of the
// scheduler use a fake whose workers are scripted objects in this process
// (fake_worker.h), so scheduling, crash handling and verdicts are tested in
// milliseconds without Python or torch.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "context_relay.h"
#include "kmem/eval.h"
#include "process.h"

namespace kmem::eval {

class WorkerLauncher {
 public:
  virtual ~WorkerLauncher() = default;
  // The batch will start workers of `role` (a zygote starts importing now).
  virtual Status expect(const std::string& role) = 0;
  // A new worker of `role` with its stderr in `log_path`, on `cpus` (empty:
  // any), creating its CUDA context when `baton` reaches it. Thread-safe.
  virtual Result<std::unique_ptr<LineProcess>> start(const std::string& role, const std::string& log_path,
                                                     const std::vector<int>& cpus, const ContextBaton& baton) = 0;
  // Sends `signal` (SIGSTOP, SIGCONT) to a worker's process group: the
  // timing lock pauses the others while one measures. 0 on success.
  virtual int signal_group(pid_t group, int signal) = 0;
};

// The real launcher: one zygote per role, started by expect(), whose logs
// go to `run_dir`/zygote-ROLE.log and which run on `cpus`.
std::unique_ptr<WorkerLauncher> make_zygote_launcher(const EvalOptions& options, const std::string& run_dir,
                                                     const std::vector<int>& cpus);

}  // namespace kmem::eval
