// The parts of `kmem eval` shared by its two modes (src/cli/eval.cpp: the
// options and one candidate; src/cli/eval_batch.cpp: a jobs file).
#pragma once

#include <string>
#include <vector>

#include "eval_options.h"
#include "kmem/eval.h"

namespace kmem::cli {

struct EvalArgs {
  std::string problem, candidate, jobs, out;
  std::vector<std::string> redo;  // job ids, verdicts or flags to run again
  bool json = false, progress = false;
  EvalChoices choices;  // --device, --no-sandbox
  EvalOptions options;
};

// `kmem eval --jobs --out`; returns the exit code (docs: README, "Exit codes").
int run_batch(const EvalArgs& args);

}  // namespace kmem::cli
