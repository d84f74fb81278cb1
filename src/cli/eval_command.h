// The parts of `kmem eval` shared by its two modes (src/cli/eval.cpp: the
// options and one candidate; src/cli/eval_batch.cpp: a jobs file).
#pragma once

#include <chrono>
#include <map>
#include <set>
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
  bool queue = false;   // --queue: enqueue in --store for `kmem worker`s instead of evaluating here
  std::string store;
  EvalOptions options;
};

// `kmem eval --jobs --out`; returns the exit code (docs: README, "Exit codes").
int run_batch(const EvalArgs& args);

// The batch's jobs not in `done` evaluated through the job queue of args.db
// (src/cli/eval_queue.cpp), their outcomes appended to `results`.
int run_queued_batch(const EvalArgs& args, const std::set<std::string>& done, ResultsFile& results, size_t skipped);

// Prints the batch's summary of `results` (as JSON with --json) and returns
// the exit code: kExitOk, or kExitUsage after `written`'s error when the
// results file could not be written.
int finish_batch(const EvalArgs& args, const std::map<std::string, FinishedJob>& results, size_t evaluated,
                 size_t skipped, std::chrono::steady_clock::time_point started, const Status& written);

}  // namespace kmem::cli
