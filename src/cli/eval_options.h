// The one place where a command's evaluator options are completed: every
// command that evaluates candidates (kmem eval, episode, experiment run,
// items add, reverify) or asks the worker about itself (kmem ingest) gets
// the same defaults, KMEM_TUNE_* variables, device and sandbox check.
#pragma once

#include <string>

#include "kmem/eval.h"
#include "kmem/result.h"
#include "tuning.h"

namespace kmem::cli {

// What a command line says of the evaluator beyond EvalOptions' own fields.
struct EvalChoices {
  std::string device = "auto";  // --device: cpu, cuda or auto (CUDA where usable)
  bool no_sandbox = false;      // --no-sandbox: candidates run outside it, flagged unsandboxed
};

// Fills in what no flag gave: the interpreter ($KMEM_PYTHON, ...), the cache
// folder (made absolute), the worker's folder, the KMEM_TUNE_* variables
// read from `environment` (src/cli/tuning.h), the device as chosen and the
// sandbox flag. For a command that runs no candidate (kmem ingest).
Status complete_eval_options(const EvalChoices& choices, const Environment& environment, EvalOptions& options);

// complete_eval_options, then for a command that runs candidates: "auto"
// resolved (CUDA where the interpreter sees a usable device, else the CPU),
// "cuda" checked, and the sandbox checked to start unless --no-sandbox.
// Each error is one line naming what failed.
Status resolve_eval_options(const EvalChoices& choices, const Environment& environment, EvalOptions& options);

}  // namespace kmem::cli
