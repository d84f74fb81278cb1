// The crash-loop guard around a resumable batch: which jobs run, in what
// order and journaled how, given the journal of a run that died
// (InflightJournal, inflight.cpp).
#include "batch.h"

namespace kmem {

namespace eval {

Status evaluate_guarded_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs,
                             const EvalOptions& options, InflightJournal& journal,
                             const std::function<void(const EvalOutcome&)>& on_result,
                             const std::function<void(const EvalJob&)>& on_start,
                             const std::function<void(const EvalJob&)>& on_built) {
  std::vector<EvalJob> pending, suspects;
  for (const auto& job : jobs) {
    auto left = journal.left_over().find(job.id);
    if (left == journal.left_over().end()) pending.push_back(job);
    else if (!left->second) suspects.push_back(job);
    else  // it took the evaluator down while running alone: not run into the same crash again
      on_result(rejected_outcome(job, "killed_evaluator",
                                 "the evaluator died while this job ran alone (" + journal.path() + ")"));
  }
  Status written;
  auto journaled = [&](bool alone) {
    return [&, alone](const EvalJob& job) {
      if (on_start) on_start(job);
      if (auto status = journal.started(job.id, alone); !status && written) written = status;
    };
  };
  evaluate_batch_with(launcher, pending, options, on_result, journaled(options.parallel == 1), on_built);
  // One at a time: one of them may have taken the last run down.
  for (const auto& suspect : suspects)
    evaluate_batch_with(launcher, {suspect}, options, on_result, journaled(true), on_built);
  return written;
}

}  // namespace eval

Status evaluate_guarded(const std::vector<EvalJob>& jobs, const EvalOptions& options, InflightJournal& journal,
                        const std::function<void(const EvalOutcome&)>& on_result,
                        const std::function<void(const EvalJob&)>& on_start,
                        const std::function<void(const EvalJob&)>& on_built) {
  return eval::evaluate_guarded_with(eval::make_zygote_launcher, jobs, options, journal, on_result, on_start, on_built);
}

}  // namespace kmem
