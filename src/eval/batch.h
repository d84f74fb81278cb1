// evaluate_batch and evaluate_guarded (kmem/eval.h) with the workers started by a WorkerLauncher
// of the caller's making: the real one (zygotes) or, in the tests of the
// scheduler, fakes (fake_worker.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kmem/eval.h"
#include "worker_launcher.h"

namespace kmem::eval {

// Makes the batch's launcher once its scratch folder `run_dir` exists;
// workers run on `cpus` (empty: any).
using LauncherFactory = std::function<std::unique_ptr<WorkerLauncher>(
    const EvalOptions& options, const std::string& run_dir, const std::vector<int>& cpus)>;

void evaluate_batch_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs, const EvalOptions& options,
                         const std::function<void(const EvalOutcome&)>& on_result,
                         const std::function<void(const EvalJob&)>& on_start = {},
                         const std::function<void(const EvalJob&)>& on_built = {});

// evaluate_stream (kmem/eval.h) likewise, reporting also as each job
// starts and once it is built (as evaluate_batch's `on_start`, `on_built`).
void evaluate_stream_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs, const JobFeed& more,
                          const EvalOptions& options, const std::function<void(const EvalOutcome&)>& on_result,
                          const std::function<void(const EvalJob&)>& on_start = {},
                          const std::function<void(const EvalJob&)>& on_built = {});

// evaluate_guarded (kmem/eval.h) likewise.
Status evaluate_guarded_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs,
                             const EvalOptions& options, InflightJournal& journal,
                             const std::function<void(const EvalOutcome&)>& on_result,
                             const std::function<void(const EvalJob&)>& on_start = {},
                             const std::function<void(const EvalJob&)>& on_built = {});

}  // namespace kmem::eval
