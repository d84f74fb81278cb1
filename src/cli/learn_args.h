// What the learning commands (ingest, items, reverify) share: the evaluator
// options and identity, the date of a change, and the prompt pack.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kmem/eval.h"
#include "kmem/learn.h"
#include "kmem/memory.h"
#include "kmem/result.h"

namespace kmem::cli {

struct EvaluatorArgs {
  EvalOptions eval;
  bool no_sandbox = false;
  // Given together, they name the evaluator instead of asking the worker.
  std::string version, gpu;
};

// Adds --device, --python, --cache-dir, --no-sandbox, --evaluator-version, --gpu.
void add_evaluator_options(CLI::App& cmd, EvaluatorArgs& args);

// Fills in the defaults (interpreter, cache, worker folder, sandbox).
void resolve_evaluator(EvaluatorArgs& args);

// The evaluator's identity: --evaluator-version and --gpu, else the worker's answer.
Result<EvaluatorIdentity> evaluator_identity(const EvaluatorArgs& args);

// Now, UTC, ISO 8601.
std::string utc_date();

// The prompt pack at `path`, or the bundled seed pack when empty.
Result<Pack> load_pack_or_seed(const std::string& path);

}  // namespace kmem::cli
