// The parts of `kmem eval` shared by its two modes (src/cli/eval.cpp: the
// options and one candidate; src/cli/eval_batch.cpp: a jobs file).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "kmem/eval.h"

namespace kmem::cli {

struct EvalArgs {
  std::string problem, candidate, jobs, out, device = "auto";
  std::vector<std::string> redo;  // job ids, verdicts or flags to run again
  bool json = false, no_sandbox = false, progress = false;
  EvalOptions options;
};

// The job to run for `job` (its candidate a Python file), or the outcome of a
// candidate rejected before any code runs: unreadable (missing_candidate),
// without a code block, or refused by the static rules (verdict lines count
// in the candidate file as given, a reply's as `kmem check` counts them).
std::variant<EvalJob, EvalOutcome> prepare_candidate(EvalJob job, const EvalOptions& options);

// `kmem eval --jobs --out`; returns the exit code (docs: README, "Exit codes").
int run_batch(const EvalArgs& args);

}  // namespace kmem::cli
