// Shared set-up of the evaluator tests.
#include "eval_fixture.h"

namespace kmem::test {

EvalOptions test_options(const std::string& device) {
  EvalOptions options;
  options.device = device;
  options.trials = 3;
  options.iters = 5;
  options.warmup = 1;
  options.build_timeout_s = 300;
  // Some candidates compile in __init__, under the run limit; in the sandbox
  // each candidate source has a build cache of its own, so each compiles once.
  options.run_timeout_s = 300;
  options.python = default_python();
  options.python_dir = KMEM_PYTHON_DIR;
  options.cache_dir = KMEM_EVAL_TEST_CACHE;
  // These suites test the run-time defences: their hostile candidates must
  // reach the worker processes, which the static rules would not let them
  // (those are tested in src/check/ and, composed into evaluate(), in
  // src/eval/scheduler_test.cpp; `kmem eval` runs them).
  options.static_rules = false;
  return options;
}

std::string fixture_path(const std::string& relative) { return std::string(KMEM_EVAL_TESTS_DIR) + "/" + relative; }

EvalOutcome evaluate_fixture(const std::string& problem, const std::string& candidate, const EvalOptions& options) {
  return evaluate({candidate, fixture_path(problem), fixture_path(candidate)}, options);
}

}  // namespace kmem::test
