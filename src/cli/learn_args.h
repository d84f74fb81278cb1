// What the learning commands (ingest, items, reverify) share: the evaluator
// options and identity, the date of a change, and the prompt pack.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "eval_options.h"
#include "kmem/eval.h"
#include "kmem/learn.h"
#include "kmem/memory.h"
#include "kmem/result.h"

namespace kmem::cli {

struct EvaluatorArgs {
  EvalOptions eval;
  EvalChoices choices{"cpu"};  // --device (default cpu), --no-sandbox
  // Given together, they name the evaluator instead of asking the worker.
  std::string version, gpu;
};

// Adds --device, --python, --cache-dir, --no-sandbox, --evaluator-version, --gpu.
void add_evaluator_options(CLI::App& cmd, EvaluatorArgs& args);

// Completes the evaluator options (src/cli/eval_options.h): resolved and
// checked when the command runs candidates (`runs_candidates`: items add,
// reverify), else only completed (ingest).
Status resolve_evaluator(EvaluatorArgs& args, bool runs_candidates);

// The evaluator's identity: --evaluator-version and --gpu, else the worker's answer.
Result<EvaluatorIdentity> evaluator_identity(const EvaluatorArgs& args);

// Now, UTC, ISO 8601.
std::string utc_date();

// The prompt pack at `path`, or the bundled seed pack when empty.
Result<Pack> load_pack_or_seed(const std::string& path);

}  // namespace kmem::cli
