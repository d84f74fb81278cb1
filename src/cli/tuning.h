// The evaluator's scheduler internals, kept out of `kmem eval --help`: set
// only to tune a machine, as environment variables read here and nowhere
// else (docs/evaluator.md, "Tuning"):
//   KMEM_TUNE_DEVICE_SETUPS        CUDA: workers creating their CUDA context at once (0: one per four CPUs)
//   KMEM_TUNE_DEVICE_CONNECTIONS   CUDA: work queues per worker context (default 2; 0: the driver's 8)
//   KMEM_TUNE_REFERENCE_WORKERS    processes hosting the references (0: one per three problems in flight)
//   KMEM_TUNE_INPUTS_BY_FILE       1: CUDA inputs reach candidates as files, not IPC handles
#pragma once

#include <cstdlib>  // std::getenv, the Environment of kmem itself
#include <functional>

#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem::cli {

// Reads a variable: std::getenv, or a fake in tests; nullptr when unset.
using Environment = std::function<const char*(const char*)>;

// Applies the KMEM_TUNE_* variables set in `environment` to `options`; a
// value that is not a whole number in its range is an error naming it.
Status apply_tuning(const Environment& environment, EvalOptions& options);

}  // namespace kmem::cli
