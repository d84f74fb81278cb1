// A zygote: a Python process (`python3 -m kmem_worker zygote ROLE DEVICE`)
// that imports torch and the worker's modules once, without touching the
// device, and forks a worker of its role on request, so that no worker pays
// the seconds of imports itself. Requests travel over a Unix socket with the
// new worker's pipes and log attached (SCM_RIGHTS); the worker comes out as
// a child of this process (made a child subreaper for it), in a process
// group of its own, and is then driven, killed and reaped like any child.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "context_relay.h"
#include "kmem/eval.h"
#include "process.h"

namespace kmem::eval {

class Zygote {
 public:
  // Starts the zygote of `role` for options.device, with its stderr in
  // `log_path`; it imports while the caller goes on. With options.sandbox,
  // a candidate zygote runs in the sandbox (sandbox.h) of the batch whose
  // scratch folder is `run_dir`, and confines each worker it forks.
  static Result<std::unique_ptr<Zygote>> start(const std::string& role, const EvalOptions& options,
                                               const std::string& run_dir, const std::string& log_path,
                                               const std::vector<int>& cpus);
  ~Zygote();
  Zygote(const Zygote&) = delete;
  Zygote& operator=(const Zygote&) = delete;

  // A new worker with its stderr in `log_path`, on `cpus` (empty: any),
  // creating its CUDA context when `baton` reaches it; waits for the zygote's imports the
  // first time. Thread-safe. A zygote that does not answer in time is
  // stopped, and later requests fail at once.
  Result<std::unique_ptr<ChildProcess>> fork_worker(const std::string& log_path, const std::vector<int>& cpus,
                                                    const ContextBaton& baton);

 private:
  Zygote(std::unique_ptr<ChildProcess> process, int socket, std::string log_path, const EvalOptions& options)
      : process_(std::move(process)), socket_(socket), log_path_(std::move(log_path)), options_(options) {}
  Error failure(const std::string& what) const;

  std::unique_ptr<ChildProcess> process_;
  int socket_;
  std::string log_path_;
  const EvalOptions& options_;
  std::mutex mutex_;     // one request at a time
  std::string stopped_;  // why the zygote was stopped; empty while it serves
};

}  // namespace kmem::eval
